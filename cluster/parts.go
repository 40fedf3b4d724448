package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Parts carries implementations of pieces of Kafka into the world, in place of the
// library's own: the learning kit's live mode plugs a learner's functions in with it
// (exercises/live). The zero value is the reference everywhere and costs a nil check
// where a part would be used. Each function answers ok = false to decline a call (its
// caller caught a panic, a call that did not return in time or a result out of range),
// and the reference answers that call instead.
//
// The world records which implementation decided what an event records: [Event.Impl]
// names the part ("" for the reference).
type Parts struct {
	// Log goes to every partition log the brokers open: the recovery of each segment
	// at every broker start, the lookup of a consumer's fetch, the retention rule,
	// the batches the cleaner rebuilds (not on the internal topic).
	Log kafkalog.Parts
	// EncodeBatch is the producers' record batch encoder (uncompressed, v2): each
	// batch a producer sends (one record, or with linger.ms several) travels as
	// the bytes it made, and the leader's log
	// validates them as Kafka's LogValidator does (CRC, lengths, the header's
	// offsets, count, control bit and sequence, records, their offset deltas); a
	// batch it refuses is answered CORRUPT_MESSAGE or INVALID_RECORD, and a wrong
	// maxTimestamp it corrects to the records' largest timestamp. Producers of
	// the internal topic (the group coordinator) are not concerned.
	EncodeBatch func(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool)
	// TruncationPoint is the followers' truncation rule under the modern rules
	// (replica.Config.TruncationPoint).
	TruncationPoint func(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (offset int64, done bool, ok bool)
	// Truncate is the followers' whole truncation under the v2.1 rules, in
	// OffsetsForLeaderEpoch rounds (replica.Config.Truncate): each question it
	// asks is a request to the leader over the world's network.
	Truncate func(f replica.FollowerState, ask func(epoch int32) replica.EpochEndOffset) (replica.FollowerState, bool)
	// CooperativeSticky is the cooperative-sticky assignor of every group member
	// that lists it (CooperativeStickyAssignor.assign); the world refuses an
	// assignment that gives a partition that does not exist, gives one to two
	// members, or leaves a member out, and the reference assigns that round.
	CooperativeSticky func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool)
}

// The parts an [Event.Impl] names.
const (
	PartEncoder    = event.PartEncoder
	PartLookup     = event.PartLookup
	PartRetention  = event.PartRetention
	PartRecovery   = event.PartRecovery
	PartTruncation = event.PartTruncation
	PartAssignor   = event.PartAssignor
)

// markLast sets the Impl of the last event recorded.
func (w *World) markLast(impl string) {
	if n := len(w.events); n > 0 {
		w.events[n-1].Impl = impl
	}
}

// encodedByPart reports whether the producers of topic encode with Parts.EncodeBatch.
func (w *World) encodedByPart(topic string) bool {
	return w.cfg.Parts.EncodeBatch != nil && topic != OffsetsTopic
}

// encodeRecords encodes records, with their timestamps, as the batch a producer
// sends (transactional: a transactional producer's), with Parts.EncodeBatch (the
// library's encoder if it declines or is not given).
func (w *World) encodeRecords(records []replica.Record, timestamps []int64, transactional bool) []byte {
	var b kafkalog.RecordBatch
	b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, transactional, false)
	b.PartitionLeaderEpoch = kafkalog.NoPartitionLeaderEpoch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, kafkalog.NoSequence
	if p := records[0].Producer; p != nil {
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = p.ID, p.Epoch, p.Sequence
	}
	for i, rec := range records {
		b.AppendRecord(int64(i), timestamps[i], rec.Key, rec.Value)
	}
	if w.cfg.Parts.EncodeBatch != nil {
		if out, ok := w.cfg.Parts.EncodeBatch(nil, &b); ok {
			return out
		}
	}
	return b.AppendTo(nil)
}

// partAssignor is the cooperative-sticky assignor of Parts.CooperativeSticky, with the
// reference answering a round it declines or gives an assignment the world refuses.
type partAssignor struct {
	w   *World
	ref group.Assignor
}

// Name implements [group.Assignor].
func (a partAssignor) Name() string { return a.ref.Name() }

// Protocol implements [group.Assignor].
func (a partAssignor) Protocol() group.RebalanceProtocol { return a.ref.Protocol() }

// Assign implements [group.Assignor].
func (a partAssignor) Assign(members []group.MemberSubscription, topics []group.TopicMetadata) group.Assignment {
	got, ok := a.w.cfg.Parts.CooperativeSticky(members, topics)
	if ok {
		err := CheckAssignment(got, members, topics)
		if err == nil {
			a.w.record(EventGroup, 0, nil, "cooperative-sticky assignment by the part given: %s", assignmentText(got))
			a.w.markLast(PartAssignor)
			return got
		}
		a.w.record(EventGroup, 0, nil, "cooperative-sticky assignment refused: %v", err)
		a.w.markLast(PartAssignor)
	}
	return a.ref.Assign(members, topics)
}

var errAssignment = errors.New("cluster: invalid assignment")

// CheckAssignment refuses an assignment the group could not run: a partition that
// does not exist or is given twice, a member left out or unknown.
func CheckAssignment(got group.Assignment, members []group.MemberSubscription, topics []group.TopicMetadata) error {
	count := map[string]int32{}
	for _, t := range topics {
		count[t.Topic] = t.Partitions
	}
	known := map[string]bool{}
	for _, m := range members {
		known[m.MemberID] = true
		if _, ok := got[m.MemberID]; !ok {
			return fmt.Errorf("%w: member %s has no entry", errAssignment, m.MemberID)
		}
	}
	owner := map[group.TopicPartition]string{}
	for id, tps := range got {
		if !known[id] {
			return fmt.Errorf("%w: member %s is not in the group", errAssignment, id)
		}
		for _, tp := range tps {
			if n, ok := count[tp.Topic]; !ok || tp.Partition < 0 || tp.Partition >= n {
				return fmt.Errorf("%w: %s-%d does not exist", errAssignment, tp.Topic, tp.Partition)
			}
			if o, ok := owner[tp]; ok {
				return fmt.Errorf("%w: %s-%d given to %s and %s", errAssignment, tp.Topic, tp.Partition, o, id)
			}
			owner[tp] = id
		}
	}
	return nil
}

func assignmentText(a group.Assignment) string {
	ids := make([]string, 0, len(a))
	for id := range a {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %v", id, group.SortedPartitions(a[id]))
	}
	return b.String()
}

// partAssignors replaces cooperative-sticky in as with the part, when one is given.
func (w *World) partAssignors(as []group.Assignor) []group.Assignor {
	if w.cfg.Parts.CooperativeSticky == nil {
		return as
	}
	out := make([]group.Assignor, len(as))
	for i, a := range as {
		out[i] = a
		if a.Name() == (group.CooperativeStickyAssignor{}).Name() {
			out[i] = partAssignor{w: w, ref: a}
		}
	}
	return out
}

// noteFetch records, for a fetch at pos whose first record (below the HW) is first,
// found by the lookup part, the offsets it skipped or got again: those of the leader's
// log from pos (an offset the cleaner removed is no record to miss).
func (w *World) noteFetch(name string, tp partitionKey, pos, first int64) {
	want := pos
	if s := w.leaderSlot(tp); s != nil {
		if i := s.Log.Index(pos); i < s.Log.Mirror().Len() {
			want = s.Log.Mirror().At(i).Offset
		}
	}
	switch {
	case first > want:
		w.record(EventConsume, 0, &tp, "%s asked for offset %d and got a batch from %d: offsets %d-%d skipped", name, pos, first, want, first-1)
	case first < want:
		w.record(EventConsume, 0, &tp, "%s asked for offset %d and got a batch from %d: offsets %d-%d again", name, pos, first, first, want-1)
	default:
		return
	}
	w.markLast(PartLookup)
}

// fetchEntries is a consumer's read of its leader's log s (the leader's
// broker counts it): see broker.Broker.FetchEntries.
func (w *World) fetchEntries(s *broker.Partition, pos int64, limit int) (entries []replica.Entry, byPart, stuck bool) {
	return w.brokers[w.ctl.Leader(s.TP)-1].FetchEntries(w.env(), s, pos, limit)
}
