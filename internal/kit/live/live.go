package live

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// Code is a learner's functions, each in the types of its chapter's suite. A nil
// function is not given: the reference runs in its place.
type Code struct {
	Varint      kafkalogkit.VarintCodec
	Batch       kafkalogkit.BatchEncoder
	Index       kafkalogkit.IndexLookup
	Retention   kafkalogkit.Retention
	Recovery    kafkalogkit.Recovery
	Truncation  replicakit.Truncation
	Cooperative groupkit.CooperativeSticky
	// ReadCommitted is what every read_committed consumer hands out of a
	// fetch.
	ReadCommitted kafkalogkit.ReadCommitted
}

// The parts, named by their exercise.
const (
	PartVarint      = "ch01/varint"
	PartBatch       = "ch01/batch"
	PartIndex       = "ch02/index"
	PartRetention   = "ch03/retention"
	PartRecovery    = "ch04/recovery"
	PartTruncation  = "ch05/truncation"
	PartCooperative = "ch06/cooperative"
	// PartReadCommitted is the read_committed consumers' filter.
	PartReadCommitted = "ch07/readcommitted"
)

// Parts lists the parts in chapter order.
var Parts = []string{PartVarint, PartBatch, PartIndex, PartRetention, PartRecovery, PartTruncation, PartCooperative, PartReadCommitted}

// partOfImpl maps a cluster.Event's Impl to the part that produced it.
var partOfImpl = map[string]string{
	cluster.PartEncoder: PartBatch, cluster.PartLookup: PartIndex, cluster.PartRetention: PartRetention,
	cluster.PartRecovery: PartRecovery, cluster.PartTruncation: PartTruncation, cluster.PartAssignor: PartCooperative,
	cluster.PartReadCommitted: PartReadCommitted,
}

// What runs a part.
const (
	YourCode  = "your code"
	Reference = "reference"
)

// Status is one part as the world runs it.
type Status struct {
	// Part is the exercise, e.g. "ch02/index".
	Part string `json:"part"`
	// Runs is YourCode or Reference.
	Runs string `json:"runs"`
	// Why says why the reference runs: not written yet, or the fault.
	Why string `json:"why,omitempty"`
	// Calls counts the calls of the learner's code.
	Calls int `json:"calls"`
	// Used says where the world uses it.
	Used string `json:"used"`
}

// Fault is a call of the learner's code that failed at the boundary.
type Fault struct {
	// Part is the exercise.
	Part string `json:"part"`
	// Kind is "panic", "timeout" or "refused" (a result out of range).
	Kind string `json:"kind"`
	// Call is the function and its input, e.g. "LookupIndex(index of 3 entries, ...)".
	Call string `json:"call"`
	// Value is what it panicked with, or why its result was refused.
	Value string `json:"value"`
	// Stack is the learner's goroutine's stack at the panic.
	Stack string `json:"stack,omitempty"`
}

// String prints the fault on one line.
func (f Fault) String() string {
	return fmt.Sprintf("%s: %s %s: %s", f.Part, f.Call, f.Kind, f.Value)
}

// used says where the world uses each part.
var used = map[string]string{
	PartVarint:        "the producers' record varints, and timestamp deltas within an int32 (when ch01/batch is not written: AppendRecord uses the library's)",
	PartBatch:         "every producer's record batch",
	PartIndex:         "every consumer fetch: the index lookup and the scan",
	PartRetention:     "every retention check of every log",
	PartRecovery:      "every segment a starting broker recovers",
	PartTruncation:    "every follower truncation: each DivergingEpoch (TruncationPoint), and under the v2.1 rules the OffsetsForLeaderEpoch rounds (Truncate)",
	PartCooperative:   "every cooperative-sticky rebalance",
	PartReadCommitted: "every fetch of every read_committed consumer: what it hands out",
}

// Live is a learner's code as the world runs it: which parts are written, their
// faults. It is safe for concurrent use.
type Live struct {
	// Deadline is how long one call may take (default 2 s).
	Deadline time.Duration

	code   Code
	mu     sync.Mutex
	parts  map[string]*partState
	faults []Fault

	// truncateWritten says the ch05 part's Truncate is written too.
	truncateWritten bool
}

type partState struct {
	written bool
	fault   *Fault
	calls   int
}

// New probes each function of code (a simple call; a stub panics with TODO) and
// returns the Live that runs them.
func New(code Code) *Live { return NewWithDeadline(code, DefaultDeadline) }

// DefaultDeadline is how long a call of the learner's code may take.
const DefaultDeadline = 2 * time.Second

// NewWithDeadline is New with another deadline for every call, the probes'
// included: a probe that does not return in time is the part's fault.
func NewWithDeadline(code Code, deadline time.Duration) *Live {
	l := &Live{Deadline: deadline, code: code, parts: map[string]*partState{}}
	probe := func(name string, given bool, call func()) {
		st := &partState{}
		l.parts[name] = st
		if !given {
			return
		}
		done := make(chan bool, 1)
		go func() { done <- stub(call) }()
		timer := time.NewTimer(deadline)
		defer timer.Stop()
		select {
		case todo := <-done:
			st.written = !todo
		case <-timer.C:
			st.written = true
			st.fault = &Fault{Part: name, Kind: "timeout", Call: "the first call with a simple input", Value: fmt.Sprintf("it did not return within %v (an endless loop?)", deadline)}
			l.faults = append(l.faults, *st.fault)
		}
	}
	rec := &kafkalog.Record{Key: []byte("k"), Value: []byte("v")}
	var b kafkalog.RecordBatch
	b.AppendRecord(0, 0, []byte("k"), []byte("v"))
	probe(PartVarint, code.Varint.AppendVarint != nil, func() { code.Varint.AppendVarint(nil, 1) })
	probe(PartBatch, code.Batch.AppendBatch != nil && code.Batch.AppendRecord != nil, func() {
		code.Batch.AppendRecord(nil, rec)
		code.Batch.AppendBatch(nil, &b)
	})
	probe(PartIndex, code.Index.LookupIndex != nil && code.Index.FindBatch != nil, func() {
		code.Index.LookupIndex(nil, 0, 0, 0)
		code.Index.FindBatch(nil, 0, 0)
	})
	probe(PartRetention, code.Retention.DeletableSegments != nil, func() {
		code.Retention.DeletableSegments(kafkalogkit.RetentionLog{Segments: []kafkalogkit.RetentionSegment{{}}}, kafkalogkit.RetentionConfig{RetentionMs: -1, RetentionBytes: -1}, 0)
	})
	probe(PartRecovery, code.Recovery.Recover != nil, func() { code.Recovery.Recover(nil, 0, 4096) })
	probe(PartTruncation, code.Truncation.TruncationPoint != nil, func() {
		code.Truncation.TruncationPoint(nil, 0, 0, replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset})
	})
	probe(PartCooperative, code.Cooperative.Assign != nil, func() { code.Cooperative.Assign(nil, nil) })
	probe(PartReadCommitted, code.ReadCommitted.Deliver != nil, func() { code.ReadCommitted.Deliver(0, nil, nil) })
	if st := l.parts[PartTruncation]; st.written && st.fault == nil && code.Truncation.Truncate != nil {
		// Truncate is the part's second function: unwritten (TODO), the
		// reference runs the rounds where the world would hand it them.
		undefined := replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
		done := make(chan bool, 1)
		go func() {
			done <- stub(func() {
				code.Truncation.Truncate(replicakit.Follower{}, func(int32) replica.EpochEndOffset { return undefined })
			})
		}()
		timer := time.NewTimer(deadline)
		defer timer.Stop()
		select {
		case todo := <-done:
			l.truncateWritten = !todo
		case <-timer.C:
			st.fault = &Fault{Part: PartTruncation, Kind: "timeout", Call: "Truncate with a simple input", Value: fmt.Sprintf("it did not return within %v (an endless loop?)", deadline)}
			l.faults = append(l.faults, *st.fault)
		}
	}
	return l
}

// stub reports whether call panics with the exercises' TODO.
func stub(call func()) (todo bool) {
	defer func() {
		if r := recover(); r != nil {
			todo = kit.IsTODO(r)
		}
	}()
	call()
	return false
}

// Statuses lists every part in chapter order.
func (l *Live) Statuses() []Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Status, 0, len(Parts))
	for _, name := range Parts {
		st := l.parts[name]
		s := Status{Part: name, Runs: Reference, Calls: st.calls, Used: used[name]}
		switch {
		case !st.written:
			s.Why = "not written yet (the stub panics with TODO)"
		case st.fault != nil:
			s.Why = "your code failed: " + st.fault.String()
		default:
			s.Runs = YourCode
		}
		out = append(out, s)
	}
	return out
}

// Faults lists the faults so far, oldest first.
func (l *Live) Faults() []Fault {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Fault(nil), l.faults...)
}

// Runs reports whether part runs the learner's code now.
func (l *Live) Runs(part string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.parts[part]
	return st != nil && st.written && st.fault == nil
}

// PartOfEvent names the part whose code decided what e records, "" for the
// reference.
func (l *Live) PartOfEvent(e cluster.Event) string {
	if e.Impl != cluster.PartEncoder {
		return partOfImpl[e.Impl]
	}
	switch {
	case l.Runs(PartBatch):
		return PartBatch
	case l.Runs(PartVarint):
		return PartVarint
	}
	return ""
}

// fail records a fault; the part runs the reference from then on.
func (l *Live) fail(f Fault) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st := l.parts[f.Part]; st.fault == nil {
		st.fault = &f
	}
	l.faults = append(l.faults, f)
}

// call runs f, the learner's code of part, with the deadline and a recover. It
// returns false when the part no longer runs or f failed (recorded as a fault
// with the input the call describes).
func (l *Live) call(part string, describe func() string, f func()) bool {
	l.mu.Lock()
	st := l.parts[part]
	if !st.written || st.fault != nil {
		l.mu.Unlock()
		return false
	}
	st.calls++
	deadline := l.Deadline
	l.mu.Unlock()
	type result struct {
		value any
		stack string
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{value: r, stack: string(debug.Stack())}
				return
			}
			done <- result{}
		}()
		f()
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.value == nil {
			return true
		}
		l.fail(Fault{Part: part, Kind: "panic", Call: describe(), Value: fmt.Sprint(r.value), Stack: r.stack})
	case <-timer.C:
		l.fail(Fault{Part: part, Kind: "timeout", Call: describe(), Value: fmt.Sprintf("it did not return within %v (an endless loop?)", deadline)})
	}
	return false
}

// refuse records a result out of range.
func (l *Live) refuse(part, call, why string) {
	l.fail(Fault{Part: part, Kind: "refused", Call: call, Value: why})
}

// ClusterParts returns the cluster's Parts: every part the learner wrote, guarded, and
// the producers' encoder (the reference's where neither ch01 part is written).
func (l *Live) ClusterParts() cluster.Parts {
	p := cluster.Parts{EncodeBatch: l.encodeBatch}
	if l.Runs(PartBatch) || l.Runs(PartVarint) {
		p.Log.EncodeBatch = l.encodeBatch // the batches the cleaner rebuilds
	}
	if l.parts[PartIndex].written {
		p.Log.LookupIndex, p.Log.FindBatch = l.lookupIndex, l.findBatch
	}
	if l.parts[PartRetention].written {
		p.Log.DeletableSegments = l.deletableSegments
	}
	if l.parts[PartRecovery].written {
		p.Log.Recover = l.recover
	}
	if l.parts[PartTruncation].written {
		p.TruncationPoint = l.truncationPoint
		if l.truncateWritten {
			p.Truncate = l.truncate
		}
	}
	if l.parts[PartCooperative].written {
		p.CooperativeSticky = l.assign
	}
	if l.parts[PartReadCommitted].written {
		p.ReadCommitted = l.readCommitted
	}
	return p
}

// ReferenceParts are the Parts of a world that runs the reference everywhere, in
// the places a learner's world runs its parts: the producers encode their batches
// (with the library's encoder) as a learner's world does.
func ReferenceParts() cluster.Parts {
	return cluster.Parts{
		EncodeBatch: func(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool) { return b.AppendTo(dst), true },
		CooperativeSticky: func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool) {
			return sortedAssignment(group.CooperativeStickyAssignor{}.Assign(members, topics)), true
		},
	}
}

// sortedAssignment sorts each member's partitions, topic then partition: the
// order of a cooperative-sticky assignment carries no meaning (it is not the
// eager sticky assignor's previous-assignment order), and sorted, a learner's
// right answer is the reference's byte for byte.
func sortedAssignment(a group.Assignment) group.Assignment {
	out := group.Assignment{}
	for id, tps := range a {
		out[id] = group.SortedPartitions(tps)
	}
	return out
}

func (l *Live) encodeBatch(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool) {
	describe := func() string { return "AppendBatch(" + describeBatch(b) + ")" }
	var out []byte
	if l.Runs(PartBatch) {
		if l.call(PartBatch, describe, func() { out = l.code.Batch.AppendBatch(dst, b) }) {
			return out, true
		}
	}
	if l.Runs(PartVarint) {
		var failed bool
		varint := func(dst []byte, v int32) []byte {
			var got []byte
			describe := func() string { return fmt.Sprintf("AppendVarint(dst of %d bytes, %d)", len(dst), v) }
			if failed || !l.call(PartVarint, describe, func() { got = l.code.Varint.AppendVarint(slices.Clip(dst), v) }) {
				failed = true
				return kafkalog.AppendVarint(dst, v)
			}
			if len(got) <= len(dst) || len(got) > len(dst)+5 || !bytes.Equal(got[:len(dst)], dst) {
				l.refuse(PartVarint, describe(), fmt.Sprintf("returned %d bytes: not dst extended by 1 to 5 bytes", len(got)))
				failed = true
				return kafkalog.AppendVarint(dst, v)
			}
			return got
		}
		out = appendBatchWithVarint(dst, b, varint)
		if !failed {
			return out, true
		}
	}
	return b.AppendTo(dst), true
}

func describeBatch(b *kafkalog.RecordBatch) string {
	var recs []string
	for _, r := range b.Records {
		recs = append(recs, fmt.Sprintf("{key %q value %q}", r.Key, r.Value))
	}
	return fmt.Sprintf("batch baseOffset %d, producerId %d, baseSequence %d, records %s", b.BaseOffset, b.ProducerID, b.BaseSequence, strings.Join(recs, " "))
}

func (l *Live) lookupIndex(index []byte, entries int, base, target int64) (int64, int32, bool) {
	var off int64
	var pos int32
	describe := func() string {
		return fmt.Sprintf("LookupIndex(index of %d bytes %s, entries %d, baseOffset %d, target %d)", len(index), kit.Hex(index[:min(len(index), 8*entries)], 64), entries, base, target)
	}
	if !l.call(PartIndex, describe, func() { off, pos = l.code.Index.LookupIndex(index, entries, base, target) }) {
		return 0, 0, false
	}
	if pos < 0 {
		l.refuse(PartIndex, describe(), fmt.Sprintf("returned (%d, %d): a position below 0", off, pos))
		return 0, 0, false
	}
	return off, pos, true
}

func (l *Live) findBatch(log []byte, start int32, target int64) (int32, bool, bool) {
	var pos int32
	var found bool
	describe := func() string {
		return fmt.Sprintf("FindBatch(log of %d bytes, startPos %d, target %d)", len(log), start, target)
	}
	if !l.call(PartIndex, describe, func() { pos, found = l.code.Index.FindBatch(log, start, target) }) {
		return 0, false, false
	}
	if found && (pos < 0 || int(pos) >= len(log)) {
		l.refuse(PartIndex, describe(), fmt.Sprintf("returned position %d, outside the %d bytes", pos, len(log)))
		return 0, false, false
	}
	return pos, found, true
}

func (l *Live) deletableSegments(v kafkalog.RetentionView, nowMs int64) (int, bool) {
	log := kafkalogkit.RetentionLog{LogEndOffset: v.LogEndOffset, HighWatermark: v.HighWatermark, LogStartOffset: v.LogStartOffset}
	for _, s := range v.Segments {
		log.Segments = append(log.Segments, kafkalogkit.RetentionSegment(s))
	}
	cfg := kafkalogkit.RetentionConfig{RetentionMs: v.RetentionMs, RetentionBytes: v.RetentionBytes, Delete: v.Delete}
	var n int
	describe := func() string {
		return fmt.Sprintf("DeletableSegments(%+v, %+v, nowMs %d)", log, cfg, nowMs)
	}
	if !l.call(PartRetention, describe, func() { n = l.code.Retention.DeletableSegments(log, cfg, nowMs) }) {
		return 0, false
	}
	if n < 0 || n > len(v.Segments) {
		l.refuse(PartRetention, describe(), fmt.Sprintf("returned %d: the log has %d segments", n, len(v.Segments)))
		return 0, false
	}
	return n, true
}

func (l *Live) recover(log []byte, base int64, interval int) (int, []byte, bool) {
	var valid int
	var index []byte
	describe := func() string {
		return fmt.Sprintf("Recover(log of %d bytes %s, baseOffset %d, indexIntervalBytes %d)", len(log), kit.Hex(log, 64), base, interval)
	}
	if !l.call(PartRecovery, describe, func() { valid, index = l.code.Recovery.Recover(log, base, interval) }) {
		return 0, nil, false
	}
	switch {
	case valid < 0 || valid > len(log):
		l.refuse(PartRecovery, describe(), fmt.Sprintf("returned validBytes %d, outside the %d bytes", valid, len(log)))
		return 0, nil, false
	case len(index)%kafkalog.OffsetIndexEntrySize != 0:
		l.refuse(PartRecovery, describe(), fmt.Sprintf("returned an index of %d bytes, not whole 8-byte entries", len(index)))
		return 0, nil, false
	}
	return valid, index, true
}

func (l *Live) truncationPoint(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (int64, bool, bool) {
	var off int64
	var done bool
	describe := func() string {
		return fmt.Sprintf("TruncationPoint(own %v, leo %d, hw %d, answer %+v)", own, leo, hw, answer)
	}
	if !l.call(PartTruncation, describe, func() { off, done = l.code.Truncation.TruncationPoint(own, leo, hw, answer) }) {
		return 0, false, false
	}
	if off < 0 || off > leo {
		l.refuse(PartTruncation, describe(), fmt.Sprintf("returned offset %d, outside [0, leo %d]", off, leo))
		return 0, false, false
	}
	return off, done, true
}

// errTooManyQuestions stops a Truncate that asks more questions than a
// truncation can need.
var errTooManyQuestions = fmt.Errorf("learner: too many questions")

func (l *Live) truncate(f replica.FollowerState, ask func(epoch int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
	in := replicakit.Follower{Epochs: slices.Clone(f.Epochs), LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark}
	// Each round that is not done drops at least one epoch from the cache:
	// a truncation asks at most one question per epoch it starts with, and
	// one more the world counts as not yet answered.
	limit := len(f.Epochs) + 1
	var asked []int32
	var got replicakit.Follower
	tooMany := false
	describe := func() string {
		return fmt.Sprintf("Truncate(follower {Epochs %v LogEndOffset %d HighWatermark %d}, ask)", f.Epochs, f.LogEndOffset, f.HighWatermark)
	}
	if !l.call(PartTruncation, describe, func() {
		defer func() {
			if r := recover(); r != nil {
				if r != errTooManyQuestions {
					panic(r)
				}
				tooMany = true
			}
		}()
		got = l.code.Truncation.Truncate(in, func(epoch int32) replica.EpochEndOffset {
			asked = append(asked, epoch)
			if len(asked) > limit {
				panic(errTooManyQuestions)
			}
			return ask(epoch)
		})
	}) {
		return replica.FollowerState{}, false
	}
	if tooMany {
		l.refuse(PartTruncation, describe(), fmt.Sprintf("asked about epochs %v: more than %d questions, but a round that is not done drops an epoch from the cache, and the follower has %d", asked, limit, len(f.Epochs)))
		return replica.FollowerState{}, false
	}
	return replica.FollowerState{Epochs: got.Epochs, LogEndOffset: got.LogEndOffset, HighWatermark: got.HighWatermark}, true
}

func (l *Live) assign(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool) {
	ms := make([]groupkit.Member, 0, len(members))
	subscribed := map[string]bool{}
	for _, m := range members {
		ms = append(ms, groupkit.Member{MemberID: m.MemberID, OwnedPartitions: append([]group.TopicPartition(nil), m.OwnedPartitions...)})
		for _, t := range m.Topics {
			subscribed[t] = true
		}
	}
	// The exercise's members subscribe to every topic it is given: give it
	// the topics the members subscribe to (the metadata holds them all).
	var ts []group.TopicMetadata
	for _, t := range topics {
		if subscribed[t.Topic] {
			ts = append(ts, t)
		}
	}
	topics = ts
	var got group.Assignment
	describe := func() string { return fmt.Sprintf("Assign(members %v, topics %v)", ms, topics) }
	if !l.call(PartCooperative, describe, func() { got = l.code.Cooperative.Assign(ms, topics) }) {
		return nil, false
	}
	if err := cluster.CheckAssignment(got, members, topics); err != nil {
		l.refuse(PartCooperative, describe(), fmt.Sprintf("returned %v: %v", got, err))
		return nil, false
	}
	return sortedAssignment(got), true
}

// readCommitted runs the learner's Deliver on one read_committed fetch: the
// batches as the consumer decoded them and the leader's list of aborted
// transactions, as the Fetch response carries it (producer id, first
// offset). It refuses an answer out of order or naming an offset that is
// no record of the fetch at or after fetchOffset.
func (l *Live) readCommitted(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalog.AbortedTxn) ([]int64, bool) {
	list := make([]kafkalogkit.AbortedTransaction, len(aborted))
	for i, a := range aborted {
		list[i] = kafkalogkit.AbortedTransaction{ProducerID: a.ProducerID, FirstOffset: a.FirstOffset}
	}
	var got []int64
	describe := func() string { return describeFetch(fetchOffset, batches, list) }
	if !l.call(PartReadCommitted, describe, func() { got = l.code.ReadCommitted.Deliver(fetchOffset, batches, list) }) {
		return nil, false
	}
	records := map[int64]bool{}
	for _, b := range batches {
		for _, r := range b.Records {
			if o := b.BaseOffset + int64(r.OffsetDelta); o >= fetchOffset {
				records[o] = true
			}
		}
	}
	for i, o := range got {
		if !records[o] || (i > 0 && o <= got[i-1]) {
			l.refuse(PartReadCommitted, describe(), fmt.Sprintf("returned %v: offset %d is no record of the fetch at or after %d, or out of order", got, o, fetchOffset))
			return nil, false
		}
	}
	return slices.Clone(got), true
}

// describeFetch says what a Deliver call was given.
func describeFetch(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalogkit.AbortedTransaction) string {
	bs := make([]string, 0, len(batches))
	for _, b := range batches {
		kind := "data"
		switch {
		case b.Attributes.IsControl():
			kind = "control"
		case b.Attributes.IsTransactional():
			kind = "transactional"
		}
		bs = append(bs, fmt.Sprintf("%d..%d producerId %d %s", b.BaseOffset, b.LastOffset(), b.ProducerID, kind))
	}
	return fmt.Sprintf("Deliver(fetchOffset %d, batches [%s], aborted %v)", fetchOffset, strings.Join(bs, ", "), aborted)
}
