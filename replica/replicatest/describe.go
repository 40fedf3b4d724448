package replicatest

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/replica"
)

// Ends returns the sender and receiver of an in-flight message.
func (e Envelope) Ends() (from, to int32) {
	if e.Alter != nil {
		return e.Alter.From, ControllerID
	}
	return e.Msg.From, e.Msg.To
}

// TypeName is the message type's name ("AlterPartition" for proposals).
func (e Envelope) TypeName() string {
	if e.Alter != nil {
		return "AlterPartition"
	}
	return e.Msg.Type.String()
}

func nodeName(id int32) string {
	if id == ControllerID {
		return "ctl"
	}
	return fmt.Sprint(id)
}

// DescribeEnvelope prints an in-flight message on one line, e.g.
// "2->1 Fetch#3 offset=1 last-epoch=0 epoch=0".
func DescribeEnvelope(e Envelope, rules replica.RuleSet) string {
	from, to := e.Ends()
	head := fmt.Sprintf("%s->%s %s", nodeName(from), nodeName(to), e.TypeName())
	if e.Alter != nil {
		a := e.Alter
		return fmt.Sprintf("%s isr=%s epoch=%d pepoch=%d", head, replica.FormatIDs(a.ISR), a.LeaderEpoch, a.PartitionEpoch)
	}
	return head + describeBody(*e.Msg, rules)
}

func describeBody(m replica.Message, rules replica.RuleSet) string {
	var b strings.Builder
	if m.Type != replica.MsgAlterPartitionResponse {
		fmt.Fprintf(&b, "#%d", m.CorrelationID)
	}
	epoch := func(name string, e int32) {
		if e != replica.NoEpoch {
			fmt.Fprintf(&b, " %s=%d", name, e)
		}
	}
	switch m.Type {
	case replica.MsgFetch:
		fmt.Fprintf(&b, " offset=%d", m.FetchOffset)
		epoch("last-epoch", m.LastFetchedEpoch)
		epoch("epoch", m.CurrentLeaderEpoch)
	case replica.MsgOffsetsForLeaderEpoch:
		fmt.Fprintf(&b, " for-epoch=%d", m.Epoch)
		epoch("epoch", m.CurrentLeaderEpoch)
	case replica.MsgOffsetsForLeaderEpochResponse:
		if m.Error == replica.None {
			epoch("epoch", m.Epoch)
			fmt.Fprintf(&b, " end=%d", m.EndOffset)
		}
	case replica.MsgFetchResponse:
		switch {
		case m.Error != replica.None:
		case m.DivergingEpoch != nil:
			fmt.Fprintf(&b, " diverging=(epoch %d, end %d)", m.DivergingEpoch.Epoch, m.DivergingEpoch.EndOffset)
		default:
			fmt.Fprintf(&b, " %s hw=%d", DescribeEntries(m.Entries, -1, rules), m.HighWatermark)
		}
	case replica.MsgAlterPartitionResponse:
		if m.Error == replica.None {
			fmt.Fprintf(&b, " isr=%s pepoch=%d", replica.FormatIDs(m.ISR), m.PartitionEpoch)
		}
	}
	if m.Error != replica.None {
		fmt.Fprintf(&b, " error=%s", m.Error)
	}
	if m.Error == replica.OffsetOutOfRange {
		fmt.Fprintf(&b, " log-start=%d leo=%d", m.LogStartOffset, m.LogEndOffset)
	}
	return b.String()
}

// DescribeEntries prints entries as "[0 a·e0, 1 b·e0*]": offset, value,
// leader epoch (not under V0_10), and "*" for offsets at or past
// recoveryPoint (only in the page cache; -1 prints no marks).
func DescribeEntries(entries []replica.Entry, recoveryPoint int64, rules replica.RuleSet) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		s := fmt.Sprintf("%d %s", e.Offset, e.Value)
		if rules.EpochsInRecords() {
			s += fmt.Sprintf("·e%d", e.LeaderEpoch)
		}
		if recoveryPoint >= 0 && e.Offset >= recoveryPoint {
			s += "*"
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// DescribeLog prints a MemLog's entries with page-cache marks.
func DescribeLog(l *replica.MemLog, rules replica.RuleSet) string {
	return DescribeEntries(l.Entries(), l.RecoveryPoint(), rules)
}

// DescribeEpochs prints an epoch cache as "[(0,0) (1,2)]".
func DescribeEpochs(epochs []replica.EpochEntry) string {
	parts := make([]string, len(epochs))
	for i, e := range epochs {
		parts[i] = fmt.Sprintf("(%d,%d)", e.Epoch, e.StartOffset)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// DescribeStatus prints a node's state on one line.
func DescribeStatus(s replica.Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d: %s", s.ID, s.Role)
	if s.Role == replica.RoleFollower {
		fmt.Fprintf(&b, " of %s (%s)", leaderName(s.LeaderID), s.FetchState)
	}
	fmt.Fprintf(&b, " epoch=%d leo=%d hw=%d", s.LeaderEpoch, s.LogEndOffset, s.HighWatermark)
	if s.LogStartOffset != 0 {
		fmt.Fprintf(&b, " start=%d", s.LogStartOffset)
	}
	if s.Role == replica.RoleLeader {
		fmt.Fprintf(&b, " isr=%s", replica.FormatIDs(s.ISR))
		if s.PendingISR != nil {
			fmt.Fprintf(&b, " proposed=%s", replica.FormatIDs(s.PendingISR))
		}
		fmt.Fprintf(&b, " leso=%d view={", s.LeaderEpochStartOffset)
		for i, f := range s.Followers {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d:%d", f.ID, f.LogEndOffset)
		}
		b.WriteString("}")
	}
	if s.Rules.EpochsInRecords() {
		fmt.Fprintf(&b, " epochs=%s", DescribeEpochs(s.Epochs))
	}
	return b.String()
}

func leaderName(id int32) string {
	if id == replica.NoLeader {
		return "none"
	}
	return fmt.Sprint(id)
}

// DescribeController prints the controller's state.
func DescribeController(c Controller) string {
	return fmt.Sprintf("ctl: leader=%s epoch=%d isr=%s", leaderName(c.Leader), c.LeaderEpoch, replica.FormatIDs(c.ISR))
}

// DescribeResult prints what the producer was told about one send.
func DescribeResult(r *ProduceResult) string {
	head := fmt.Sprintf("#%d %v acks=%s", r.CorrelationID, r.Values, acksName(r.Acks))
	if len(r.Records) > 0 && r.Records[0].Producer != nil {
		head += fmt.Sprintf(" seq=%d", r.Records[0].Producer.Sequence)
	}
	if r.RetryOf > 0 {
		head += fmt.Sprintf(" (retry of #%d)", r.RetryOf)
	}
	switch {
	case r.Response == nil && r.Acks == 0:
		return head + " sent"
	case r.Response == nil:
		return head + " PENDING"
	case r.Response.Error != replica.None:
		return fmt.Sprintf("%s %s", head, r.Response.Error)
	}
	return fmt.Sprintf("%s ACK(%d)", head, r.Response.BaseOffset)
}

func acksName(acks int16) string {
	if acks == replica.AcksAll {
		return "all"
	}
	return fmt.Sprint(acks)
}

// Status prints the given brokers (all if none): a status line and the log
// for a live one, the log and HW checkpoint for one that is down.
func (env *InteractionEnv) Status(ids ...int32) string {
	if len(ids) == 0 {
		for _, p := range env.Peers {
			ids = append(ids, p.ID)
		}
	}
	for _, id := range ids {
		p, err := env.Peer(id)
		if err != nil {
			fmt.Fprintf(&env.out, "error: %v\n", err)
			continue
		}
		if p.Node == nil {
			fmt.Fprintf(&env.out, "%d: down hw-checkpoint=%d\n", id, p.Checkpoint)
		} else {
			fmt.Fprintf(&env.out, "%s\n", DescribeStatus(p.Node.Status()))
		}
		fmt.Fprintf(&env.out, "   log=%s\n", DescribeLog(p.Log, env.Config.Rules))
	}
	return env.flush()
}
