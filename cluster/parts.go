package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
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
	PartEncoder    = "encoder"
	PartLookup     = "lookup"
	PartRetention  = "retention"
	PartRecovery   = "recovery"
	PartTruncation = "truncation"
	PartAssignor   = "assignor"
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

// validatingLog is a leader's log that validates a producer's batch bytes before
// appending them, as Kafka's LogValidator does (Kafka 3.7): a batch that fails its CRC
// or whose lengths do not hold is CORRUPT_MESSAGE, one whose records do not parse or
// do not match its header is INVALID_RECORD.
type validatingLog struct {
	*replicalog.Log
}

// AppendAsLeader implements [replica.Log].
func (v validatingLog) AppendAsLeader(records []replica.Record, leaderEpoch int32) (int64, error) {
	if len(records) > 0 && records[0].Batch != nil {
		raw, err := v.validate(records[0].Batch)
		if err != nil {
			return 0, err
		}
		if &raw[0] != &records[0].Batch[0] {
			records = slices.Clone(records)
			records[0].Batch = raw
		}
	}
	return v.Log.AppendAsLeader(records, leaderEpoch)
}

// AppendBatchAsLeader implements [replica.BatchLog], validating b.Bytes first.
func (v validatingLog) AppendBatchAsLeader(b replica.ProducerBatch, leaderEpoch int32) (int64, error) {
	raw, err := v.validate(b.Bytes)
	if err != nil {
		return 0, err
	}
	b.Bytes = raw
	return v.Log.AppendBatchAsLeader(b, leaderEpoch)
}

// validate checks one producer batch as Kafka 3.7's LogValidator does
// (validateBatch, then every record) and returns the bytes to append: raw,
// or, in a CreateTime topic whose batch's header says otherwise, a copy
// whose maxTimestamp is the largest of its records' timestamps. Records
// whose offset deltas are not 0, 1, 2... are refused (Kafka stores an
// uncompressed batch's as they are; a log's offsets here always increase).
func (v validatingLog) validate(raw []byte) ([]byte, error) {
	h, n, err := kafkalog.CheckBatch(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", replica.ErrCorruptMessage, err)
	}
	if n != len(raw) {
		return nil, fmt.Errorf("%w: %d bytes after the batch", replica.ErrCorruptMessage, len(raw)-n)
	}
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	decoded, marker := false, false
	if h.Attributes.IsControl() {
		// a transaction marker the coordinator has the leader append
		// (origin COORDINATOR: validateBatch's client checks do not apply)
		_, err := dec.Decode(raw, &b)
		decoded, marker = err == nil, err == nil && isEndTxnMarker(&b)
	}
	if !marker {
		if why := batchProblem(&h, path.Base(v.Log.Kafka().Dir())); why != "" {
			return nil, fmt.Errorf("%w: %s", replica.ErrInvalidRecord, why)
		}
	}
	if !decoded {
		if _, err := dec.Decode(raw, &b); err != nil {
			return nil, fmt.Errorf("%w: %w", replica.ErrInvalidRecord, err)
		}
	}
	largest := int64(kafkalog.NoTimestamp)
	for i := range b.Records {
		if d := b.Records[i].OffsetDelta; d != int32(i) {
			return nil, fmt.Errorf("%w: record %d has offset delta %d: kafkalive keeps a log's offsets increasing", replica.ErrInvalidRecord, i, d)
		}
		largest = max(largest, b.Timestamp(&b.Records[i]))
	}
	return withLargestTimestamp(raw, &h, largest, v.Log.Kafka().Config())
}

// isEndTxnMarker reports whether b is a transaction marker: one record
// whose key is a COMMIT or ABORT control key and whose value an
// EndTxnMarker.
func isEndTxnMarker(b *kafkalog.RecordBatch) bool {
	if len(b.Records) != 1 {
		return false
	}
	k, err := kafkalog.ParseControlRecordKey(b.Records[0].Key)
	if err != nil || !k.Type.IsTxnMarker() {
		return false
	}
	_, err = kafkalog.ParseEndTxnMarker(b.Records[0].Value)
	return err == nil
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

// fetchEntries returns what a consumer's fetch at pos gets from the leader's log s: the
// mirror from pos, or, with Parts.Log's lookup, the records at or above pos of the
// batches the log reads at pos (which begin above the next record, or end below pos,
// when the lookup is wrong). A consumer drops the records of a fetched batch below
// its fetch position, and moves past a batch without records to the offset after it,
// as Kafka 3.7's CompletedFetch.nextFetchedRecord does: the batch holding pos may
// begin before it, and the cleaner leaves empty batches. As the mirror does, the fetch
// goes on from there, segment after segment, to the log end. stuck is set when a read
// brought nothing at or above its offset although the log holds records there below
// the HW: the consumer asks again at the same offset.
func (w *World) fetchEntries(s *replicaSlot, pos int64, limit int) (entries []replica.Entry, byPart, stuck bool) {
	p := w.cfg.Parts.Log
	mirror := func(from int64) []replica.Entry {
		i := s.log.Index(from)
		return s.log.Mirror().Slice(i, i+limit)
	}
	if p.LookupIndex == nil && p.FindBatch == nil || s.tp.Topic == OffsetsTopic {
		w.fetchRead(s, pos)
		return mirror(pos), false, false
	}
	var out []replica.Entry
	for next := pos; next < s.log.LogEndOffset(); {
		before := s.log.Kafka().ReadStats()
		got, after, ok := w.readWithPart(s, next)
		if next == pos {
			w.countFetchRead(s, before) // the fetch's read; those after it stand for the next fetches
		}
		if !ok {
			if next == pos {
				return mirror(pos), false, false
			}
			return append(out, mirror(next)...), true, false
		}
		out = append(out, got...)
		if after <= next {
			if i := s.log.Index(next); i < s.log.Mirror().Len() && s.log.Mirror().At(i).Offset < s.node.Status().HighWatermark {
				w.record(EventConsume, 0, &s.tp, "a fetch at offset %d got no batch reaching it: nothing to hand out, it asks again", next)
				w.markLast(PartLookup)
				stuck = len(out) == 0
			}
			break
		}
		next = after
	}
	return out, true, stuck
}

// readWithPart is one read of the leader's log s at pos with the lookup part: the
// records at or above pos of the batches it reads, and the offset after the last of
// those batches (pos if none reaches it); ok is false when the part did not decide
// the read (it declined, or the log refused its answer).
func (w *World) readWithPart(s *replicaSlot, pos int64) (out []replica.Entry, after int64, ok bool) {
	before := s.log.Kafka().PartCalls()
	raw, err := s.log.Kafka().Read(pos, replica.DefaultReplicaFetchMaxBytes)
	w.noteRefused(s, before, PartLookup)
	if err != nil || s.log.Kafka().PartCalls().Lookup == before.Lookup {
		return nil, pos, false
	}
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	after = pos
	for at := 0; at < len(raw); {
		n, err := dec.Decode(raw[at:], &b)
		if err != nil {
			break
		}
		at += n
		after = max(after, b.NextOffset())
		for i := range b.Records {
			r := &b.Records[i]
			if b.Offset(r) >= pos {
				e := replica.Entry{Offset: b.Offset(r), LeaderEpoch: b.PartitionLeaderEpoch, Key: bytes.Clone(r.Key), Value: bytes.Clone(r.Value)}
				if i == 0 && b.Attributes.IsControl() {
					e.Batch = raw[at-n : at] // a transaction marker: the consumer passes it (controlEntry)
				}
				out = append(out, e)
			}
		}
	}
	return out, after, true
}

// noteFetch records, for a fetch at pos whose first record (below the HW) is first,
// found by the lookup part, the offsets it skipped or got again: those of the leader's
// log from pos (an offset the cleaner removed is no record to miss).
func (w *World) noteFetch(name string, tp partitionKey, pos, first int64) {
	want := pos
	if s := w.leaderSlot(tp); s != nil {
		if i := s.log.Index(pos); i < s.log.Mirror().Len() {
			want = s.log.Mirror().At(i).Offset
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

// noteRefused records, as an event of part, the answer of a part the log of s
// refused since before (its [kafkalog.Log.PartCalls] then): the log could not act
// on it (a fetch position that does not start a batch, the empty active segment
// to delete) and answered that call itself.
func (w *World) noteRefused(s *replicaSlot, before kafkalog.PartCalls, part string) {
	after := s.log.Kafka().PartCalls().Refused
	n := len(after)
	if n == 0 || len(before.Refused) == n && before.Refused[n-1] == after[n-1] {
		return
	}
	w.record(EventStorage, 0, &s.tp, "the %s given in Parts was refused: %s; the log's own answered", part, after[n-1])
	w.markLast(part)
}
