package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
)

// The journey of a record: where the cluster's state and its event log say
// the record is at the moment shown, and what happened to it on the way.
// The page asks for it by naming the record it drew (Focus.Offset and
// Focus.Value: the value identifies the record, since an offset can come
// to hold another record after a loss); every line is read from the world
// at that moment, none is inferred by the page.

// JourneyView is the journey of the record Value at Offset of Topic's
// Partition.
type JourneyView struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"p"`
	Offset    int64  `json:"offset"`
	Value     string `json:"value"`
	// Lines say, in order: who sent it and what it was told, whether it
	// was lost after its acknowledgement, where each replica stands at its
	// offset, whether it is committed, and who has read it.
	Lines []JourneyLine `json:"lines"`
	// Wire are the exchanges of real Kafka clients the wire panel kept
	// that carried it (the Produce that wrote it, the Fetches that read
	// it), oldest first, at most MaxJourneyWire: the page links each to
	// its entry in the panel. The wire records a client only while the
	// panel is open.
	Wire []JourneyWire `json:"wire,omitempty"`
}

// JourneyWire is one exchange that carried a record: the wire panel's
// entry (Seq), its API, client, broker and correlation id, the offsets it
// carried of the record's partition, and when its request was read.
type JourneyWire struct {
	Seq         uint64    `json:"seq"`
	API         string    `json:"api"`
	Client      string    `json:"client"`
	Broker      int32     `json:"broker"`
	Correlation int32     `json:"correlation"`
	First       int64     `json:"first"`
	Last        int64     `json:"last"`
	At          time.Time `json:"at"`
}

// JourneyLine is one fact of a journey: its Kind, the text the page
// shows, and what it claims, for the tests that hold the text to the
// state.
type JourneyLine struct {
	// Kind is "producer", "lost", "replica", "committed", "consumer" or
	// "group".
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Broker is the replica's broker (Kind "replica").
	Broker int32 `json:"b,omitempty"`
	// Holds is what the replica has at the offset (Kind "replica"): "it",
	// "other" (another record) or "none".
	Holds string `json:"holds,omitempty"`
	// Committed says the partition's leader holds the record below its
	// high watermark (Kind "committed").
	Committed bool `json:"committed,omitempty"`
}

// MaxJourneyOffsets bounds how far back from a log's end a journey reads
// the replicas: a record further back is told as too old to follow.
const MaxJourneyOffsets = 5000

// journey follows the record value at offset of topic-partition in w.
func journey(w *cluster.World, topic string, partition int32, offset int64, value string) *JourneyView {
	j := &JourneyView{Topic: topic, Partition: partition, Offset: offset, Value: value}
	shown := func(t string, p int32) bool { return t == topic && p == partition }
	st := w.StateWith(recordStateOptions(shown, MaxJourneyOffsets))
	var part *cluster.PartitionInfo
	for i := range st.Partitions {
		if shown(st.Partitions[i].Topic, st.Partitions[i].Partition) {
			part = &st.Partitions[i]
		}
	}
	if part == nil {
		j.add(JourneyLine{Kind: "replica", Text: fmt.Sprintf("%s-%d no longer exists", topic, partition), Holds: "none"})
		return j
	}
	j.producerLines(w, st, part)
	leaderHolds := ""
	for _, l := range part.Logs {
		line := replicaLine(l, offset, value)
		if l.Broker == part.Leader {
			leaderHolds = line.Holds
		}
		j.add(line)
	}
	j.add(committedLine(part, offset, leaderHolds))
	j.readerLines(st, part, leaderHolds == "it")
	return j
}

func (j *JourneyView) add(l JourneyLine) { j.Lines = append(j.Lines, l) }

// producerLines say which producer sent the record and what it was told,
// and whether it was lost after its acknowledgement (with the event that
// says when).
func (j *JourneyView) producerLines(w *cluster.World, st cluster.State, part *cluster.PartitionInfo) {
	cfgs := producerConfigs(w)
	for _, p := range st.Producers {
		if cfgs[p.Name].Topic != j.Topic {
			continue
		}
		for _, r := range p.Results {
			if r.Partition != j.Partition || preview(r.Value, PreviewBytes) != j.Value || r.Offset != nil && *r.Offset != j.Offset {
				continue
			}
			acks := cfgs[p.Name].Acks
			if acks == "" {
				acks = "all"
			}
			told := map[string]string{
				"acked":   fmt.Sprintf("acknowledged at offset %d", j.Offset),
				"lost":    fmt.Sprintf("acknowledged at offset %d", j.Offset),
				"pending": "no answer yet",
				"failed":  "failed: " + r.Error,
				"sent":    "sent with acks=0: no answer comes",
			}[r.Status]
			j.add(JourneyLine{Kind: "producer", Text: fmt.Sprintf("producer %s sent it to the leader (acks=%s): %s", p.Name, acks, told)})
			if r.Status == "lost" {
				j.add(JourneyLine{Kind: "lost", Text: "lost after its acknowledgement: " + lostWhy(w, p.Name, j)})
			}
			return
		}
	}
	j.add(JourneyLine{Kind: "producer", Text: "written by a Kafka client of yours, the terminal or a scenario: no producer on this page sent it"})
}

// lostWhy is the event that marked the record lost, as "broker 2 leads
// epoch 1 from offset 1 (t=9010 ms)".
func lostWhy(w *cluster.World, producer string, j *JourneyView) string {
	mark := fmt.Sprintf("%s@%d", j.Value, j.Offset)
	evs := w.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if e.Kind != cluster.EventProduce || e.Topic != j.Topic || e.Partition != j.Partition || !strings.HasPrefix(e.Text, "producer "+producer+": ") || !strings.Contains(e.Text, mark) {
			continue
		}
		if i := strings.LastIndex(e.Text, " ("); i >= 0 {
			return fmt.Sprintf("%s (t=%d ms); the partition no longer holds it", strings.TrimSuffix(e.Text[i+2:], ")"), e.TimeMs)
		}
	}
	return "a replica that lacked it became the leader; the partition no longer holds it"
}

// replicaLine says what the replica l holds at offset.
func replicaLine(l cluster.LogInfo, offset int64, value string) JourneyLine {
	line := JourneyLine{Kind: "replica", Broker: l.Broker, Holds: "none"}
	who := fmt.Sprintf("b%d (%s)", l.Broker, l.Role)
	var r *cluster.RecordInfo
	for i := range l.Records {
		if l.Records[i].Offset == offset {
			r = &l.Records[i]
		}
	}
	switch {
	case r == nil && offset >= l.LogEndOffset:
		line.Text = fmt.Sprintf("%s: does not have offset %d (its log ends at %d)", who, offset, l.LogEndOffset)
	case r == nil && len(l.Records) > 0 && offset < l.Records[0].Offset && l.Omitted > 0:
		line.Holds = "unknown"
		line.Text = fmt.Sprintf("%s: offset %d is more than %d records before its log end; not followed", who, offset, MaxJourneyOffsets)
	case r == nil:
		line.Text = fmt.Sprintf("%s: does not have offset %d (deleted, compacted or never there)", who, offset)
	case recordPreview(r.Value, r.ValueSize) != value:
		line.Holds = "other"
		line.Text = fmt.Sprintf("%s: holds another record at offset %d (%s)", who, offset, recordPreview(r.Value, r.ValueSize))
	default:
		line.Holds = "it"
		where := "on disk"
		if !r.Durable {
			where = "only in the page cache"
		}
		past := "not past it yet"
		if l.HighWatermark > offset {
			past = "past it"
		}
		line.Text = fmt.Sprintf("%s: has it, %s; its own HW is %d (%s)", who, where, l.HighWatermark, past)
	}
	return line
}

// committedLine says whether the record is committed: its partition's
// leader holds it (leaderHolds "it") below the high watermark.
func committedLine(part *cluster.PartitionInfo, offset int64, leaderHolds string) JourneyLine {
	switch {
	case part.Leader <= 0:
		return JourneyLine{Kind: "committed", Text: "the partition has no leader: nobody can read it now"}
	case leaderHolds == "it" && part.HighWatermark > offset:
		return JourneyLine{Kind: "committed", Committed: true, Text: fmt.Sprintf("high watermark %d: committed, consumers may read it", part.HighWatermark)}
	case leaderHolds == "it":
		return JourneyLine{Kind: "committed", Text: fmt.Sprintf("high watermark %d: not committed yet, consumers cannot see it", part.HighWatermark)}
	case leaderHolds == "unknown":
		return JourneyLine{Kind: "committed", Text: "too far back on the leader to follow"}
	}
	return JourneyLine{Kind: "committed", Text: fmt.Sprintf("the leader, b%d, does not hold it: no consumer will read it from here on", part.Leader)}
}

// readerLines say who has read past the record: the simple consumers of
// the partition and the groups' committed offsets. held says the leader
// holds the record; when it does not, a position past its offset says
// nothing of which record was read there.
func (j *JourneyView) readerLines(st cluster.State, part *cluster.PartitionInfo, held bool) {
	n := len(j.Lines)
	for _, c := range st.Consumers {
		if c.Group != "" || c.Topic != part.Topic || c.Partition != part.Partition {
			continue
		}
		read := map[[2]bool]string{{true, true}: " (has read it)", {true, false}: " (not yet)",
			{false, true}: fmt.Sprintf(" (past offset %d)", j.Offset), {false, false}: fmt.Sprintf(" (not past offset %d)", j.Offset)}[[2]bool{held, c.Position > j.Offset}]
		j.add(JourneyLine{Kind: "consumer", Text: fmt.Sprintf("consumer %s: position %d%s", c.Name, c.Position, read)})
	}
	for _, g := range st.Groups {
		for _, o := range g.Offsets {
			if o.Topic != part.Topic || o.Partition != part.Partition {
				continue
			}
			committed := "none yet"
			if o.Committed >= 0 {
				committed = fmt.Sprint(o.Committed)
			}
			past := " (not committed past it yet)"
			switch {
			case o.Committed > j.Offset && held:
				past = " (processed and committed past it)"
			case o.Committed > j.Offset:
				past = fmt.Sprintf(" (committed past offset %d)", j.Offset)
			case !held:
				past = fmt.Sprintf(" (not committed past offset %d)", j.Offset)
			}
			member := ""
			if o.Member != "" {
				member = " (member " + o.Member + ")"
			}
			j.add(JourneyLine{Kind: "group", Text: fmt.Sprintf("group %s%s: committed offset %s%s", g.Name, member, committed, past)})
		}
	}
	if len(j.Lines) == n {
		j.add(JourneyLine{Kind: "consumer", Text: "no consumer reads this partition"})
	}
}

// lostRecords lists the newest MaxLostShown records of topic-partition
// that a producer was told are stored and that were lost after.
func lostRecords(w *cluster.World, st cluster.State, topic string, partition int32) []LostView {
	cfgs := producerConfigs(w)
	var out []LostView
	for _, p := range st.Producers {
		if cfgs[p.Name].Topic != topic {
			continue
		}
		for _, r := range p.Results {
			if r.Status == "lost" && r.Partition == partition && r.Offset != nil {
				out = append(out, LostView{Offset: *r.Offset, Value: preview(r.Value, PreviewBytes), Producer: p.Name})
			}
		}
	}
	if len(out) > MaxLostShown {
		out = out[len(out)-MaxLostShown:]
	}
	return out
}
