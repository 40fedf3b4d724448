package cluster

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/client"
)

// Text prints the state in the notation of the scenario scripts: the
// brokers, the partition table, every replica's
// log as [offset value·eEPOCH] with * for records only in the page cache
// and ! for records that differ from the leader's at the same offset, then
// LEO/HW and the epoch cache EC, and the producers' results.
func (s State) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "time %d ms, rules %s\n", s.TimeMs, s.Rules)
	switch {
	case s.ActiveController > 0:
		fmt.Fprintf(&b, "controller b%d (combined mode)\n", s.ActiveController)
	case s.ActiveController < 0:
		b.WriteString("controller none (combined mode: electing)\n")
	}
	for _, br := range s.Brokers {
		fmt.Fprintf(&b, "b%d %s %s disk=%d cache=%d in=%d/s out=%d/s", br.ID, br.State, br.Controller, br.DiskBytes, br.CacheBytes, br.BytesInPerSec, br.BytesOutPerSec)
		if len(br.UncleanablePartitions) > 0 {
			fmt.Fprintf(&b, " uncleanable=%s", strings.Join(br.UncleanablePartitions, ","))
		}
		b.WriteByte('\n')
	}
	if len(s.Network) > 0 {
		fmt.Fprintf(&b, "cut links %v\n", s.Network)
	}
	for _, p := range s.Partitions {
		elr := ""
		if len(p.ELR) > 0 {
			elr += " elr=" + ids(p.ELR)
		}
		if len(p.LastKnownELR) > 0 {
			elr += " last-known-leader=" + ids(p.LastKnownELR)
		}
		fmt.Fprintf(&b, "%s-%d leader=%s e=%d replicas=%s isr=%s%s start=%d hw=%d leo=%d\n", p.Topic, p.Partition,
			leaderLabel(p.Leader), p.LeaderEpoch, ids(p.Replicas), ids(p.ISR), elr, p.LogStartOffset, p.HighWatermark, p.LogEndOffset)
		for _, l := range p.Logs {
			b.WriteString("  " + l.Text() + "\n")
		}
	}
	for _, p := range s.Producers {
		fmt.Fprintf(&b, "producer %s: sent %d acked %d failed %d", p.Name, p.Sent, p.Acked, p.Failed)
		if p.LostAfterAck > 0 {
			fmt.Fprintf(&b, " lost-after-ack %d", p.LostAfterAck)
		}
		if p.SentNoAck > 0 {
			fmt.Fprintf(&b, " sent-no-ack %d", p.SentNoAck)
		}
		b.WriteString(":")
		for _, r := range p.Results {
			b.WriteString(" " + r.Text())
		}
		b.WriteString("\n")
	}
	for _, c := range s.Consumers {
		if c.Group != "" {
			fmt.Fprintf(&b, "consumer %s (group %s, %s): processed %d, duplicates %d\n", c.ID, c.Group, c.Status, c.Processed, c.Duplicates)
			continue
		}
		fmt.Fprintf(&b, "consumer %s: %s-%d position %d, read %d\n", c.Name, c.Topic, c.Partition, c.Position, c.Read)
	}
	for _, g := range s.Groups {
		b.WriteString(g.Text())
	}
	return b.String()
}

func leaderLabel(id int32) string {
	if id < 0 {
		return "none"
	}
	return fmt.Sprint(id)
}

func ids(v []int32) string {
	parts := make([]string, len(v))
	for i, id := range v {
		parts[i] = fmt.Sprint(id)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Text prints one replica log, e.g.
// "b1 follower [0 m1·e0, 1 m2·e0*] 2/1 EC [(0,0)]"; records left out
// (LogInfo.Omitted) are counted first: "[… 98 earlier, 98 m99·e0, ...]".
func (l LogInfo) Text() string {
	recs := make([]string, len(l.Records))
	for i, r := range l.Records {
		recs[i] = r.Text()
	}
	epochs := make([]string, len(l.Epochs))
	for i, e := range l.Epochs {
		epochs[i] = fmt.Sprintf("(%d,%d)", e.Epoch, e.StartOffset)
	}
	if l.Omitted > 0 {
		recs = append([]string{fmt.Sprintf("… %d earlier", l.Omitted)}, recs...)
	}
	return fmt.Sprintf("b%d %s [%s] %d/%d EC [%s]", l.Broker, l.Role, strings.Join(recs, ", "), l.LogEndOffset, l.HighWatermark, strings.Join(epochs, ","))
}

// Text prints one record, e.g. "1 m2·e0*".
func (r RecordInfo) Text() string {
	v := r.Value
	if r.Tombstone {
		v = "∅"
	}
	// the sizes of a key and a value cut by StateOptions.Preview
	s := fmt.Sprintf("%d %s", r.Offset, client.SizedRecordLabel(r.Key, max(r.KeySize, len(r.Key)), v, max(r.ValueSize, len(v))))
	if r.LeaderEpoch >= 0 {
		s += fmt.Sprintf("·e%d", r.LeaderEpoch)
	}
	if !r.Durable {
		s += "*"
	}
	if r.DiffersFromLeader {
		s += "!"
	}
	return s
}

// Text prints one result: "m1=ACK(p0@0)", "m2=PENDING", "m3=NOT_ENOUGH_REPLICAS".
// A value past 64 bytes is cut as a record's label is.
func (r ResultInfo) Text() string {
	v := client.RecordLabel("", r.Value)
	switch {
	case r.Offset != nil && r.Status == "lost":
		return fmt.Sprintf("%s=ACK(p%d@%d),LOST", v, r.Partition, *r.Offset)
	case r.Offset != nil:
		return fmt.Sprintf("%s=ACK(p%d@%d)", v, r.Partition, *r.Offset)
	case r.Error != "":
		return fmt.Sprintf("%s=%s", v, r.Error)
	case r.Status == "sent":
		return v + "=SENT"
	}
	return v + "=PENDING"
}
