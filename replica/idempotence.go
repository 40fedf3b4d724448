package replica

import (
	"fmt"
	"math"
	"slices"
)

// Error codes of idempotent produce (KIP-98).
const (
	// OutOfOrderSequenceNumber: the batch does not continue the producer's
	// sequence and is not a retry of a batch the leader holds.
	OutOfOrderSequenceNumber ErrorCode = 45
	// InvalidProducerEpoch: the producer epoch is older than the one the
	// leader knows.
	InvalidProducerEpoch ErrorCode = 47
)

// seqAfter is the sequence n after seq: sequences count from 0 to the
// largest int32 and start again at 0 (DefaultRecordBatch.incrementSequence).
func seqAfter(seq int32, n int64) int32 {
	return int32((int64(seq) + n) % (math.MaxInt32 + 1))
}

// producerRun is a run of consecutive sequences of one producer epoch in the
// log: sequences firstSeq..lastSeq at offsets from firstOffset.
type producerRun struct {
	epoch             int16
	firstSeq, lastSeq int32
	firstOffset       int64
}

// producerState is what a leader knows of one idempotent producer: its runs,
// oldest first. Kafka keeps the last five batches
// (ProducerStateManager); runs of merged batches serve the same purpose here,
// because a record-level [Log] does not keep batch boundaries.
//
// The runs are kept in chunks, so that a clone shares them: full holds
// chunks of runChunk runs each, which never change once sealed, and tail the
// newest runs (at least one once there is any: the last run, which grows in
// place, is always in it). A clone shares both; tailShared says tail's array
// is shared, and is copied before it is written.
type producerState struct {
	full       [][]producerRun
	tail       []producerRun
	tailShared bool
}

// runChunk is how many runs a sealed chunk of a producerState holds.
const runChunk = 32

// last returns the newest run, to read or change in place, and false if
// there is none.
func (st *producerState) last() (*producerRun, bool) {
	if len(st.tail) == 0 {
		return nil, false
	}
	st.ownTail()
	return &st.tail[len(st.tail)-1], true
}

// latest returns the newest run, and false if there is none.
func (st *producerState) latest() (producerRun, bool) {
	if len(st.tail) == 0 {
		return producerRun{}, false
	}
	return st.tail[len(st.tail)-1], true
}

// add appends a run, sealing a full tail first.
func (st *producerState) add(r producerRun) {
	if len(st.tail) == runChunk {
		st.full = append(st.full, st.tail)
		st.tail, st.tailShared = make([]producerRun, 0, runChunk), false
	}
	st.ownTail()
	st.tail = append(st.tail, r)
}

// ownTail makes tail's array st's own before it is written.
func (st *producerState) ownTail() {
	if st.tailShared {
		st.tail = append(make([]producerRun, 0, runChunk), st.tail...)
		st.tailShared = false
	}
}

// find returns the first run, oldest first, holding sequences seq to last of
// epoch.
func (st *producerState) find(epoch int16, seq, last int32) (producerRun, bool) {
	for _, chunk := range st.full {
		if r, ok := findRun(chunk, epoch, seq, last); ok {
			return r, true
		}
	}
	return findRun(st.tail, epoch, seq, last)
}

// findRun is find over one chunk.
func findRun(runs []producerRun, epoch int16, seq, last int32) (producerRun, bool) {
	for _, r := range runs {
		if r.epoch == epoch && seq >= r.firstSeq && last <= r.lastSeq {
			return r, true
		}
	}
	return producerRun{}, false
}

// clone returns a copy of st sharing its runs: the sealed chunks, and the
// tail, which both copy before they write it.
func (st *producerState) clone() *producerState {
	st.full, st.tailShared = slices.Clip(st.full), true
	return &producerState{full: st.full, tail: st.tail, tailShared: true}
}

// rebuildProducers reads the whole log to learn the producers' sequences,
// as a new leader does from its producer snapshots and log.
func (n *Node) rebuildProducers() error {
	n.lead.producers = map[int64]*producerState{}
	for from := n.log.LogStartOffset(); from < n.log.LogEndOffset(); {
		entries, err := n.log.Read(from, n.cfg.ReplicaFetchMaxBytes)
		if err != nil {
			return fmt.Errorf("%w: broker %d: read producer state at %d: %w", ErrLog, n.cfg.ID, from, err)
		}
		if len(entries) == 0 {
			break
		}
		for _, e := range entries {
			if e.Producer != nil {
				n.rememberSequence(*e.Producer, e.Offset)
			}
		}
		last := entries[len(entries)-1].Offset
		if last < from {
			// a Log must return entries at from or later, in offset order
			return fmt.Errorf("%w: broker %d: read producer state at %d: the log returned entries up to offset %d", ErrLog, n.cfg.ID, from, last)
		}
		from = last + 1
	}
	return nil
}

// rememberSequence extends the producer's last run or starts a new one.
func (n *Node) rememberSequence(p ProducerSequence, offset int64) {
	st := n.lead.producers[p.ID]
	if st == nil {
		st = &producerState{}
		n.lead.producers[p.ID] = st
	}
	// a run does not wrap: sequence 0 after the largest starts another
	if last, ok := st.latest(); ok && last.epoch == p.Epoch && last.lastSeq < math.MaxInt32 && p.Sequence == last.lastSeq+1 && offset == last.firstOffset+int64(p.Sequence-last.firstSeq) {
		r, _ := st.last()
		r.lastSeq = p.Sequence
		return
	}
	st.add(producerRun{epoch: p.Epoch, firstSeq: p.Sequence, lastSeq: p.Sequence, firstOffset: offset})
}

// rememberBatch remembers count records of one producer with consecutive
// sequences from first at consecutive offsets from base, as rememberSequence
// for each of them would.
func (n *Node) rememberBatch(first ProducerSequence, count int, base int64) {
	if last := int64(first.Sequence) + int64(count) - 1; last > math.MaxInt32 {
		// The sequences wrap past the largest int32 (Kafka starts them again
		// at 0): remember them one by one, as the runs do not wrap.
		for i := range count {
			n.rememberSequence(ProducerSequence{ID: first.ID, Epoch: first.Epoch, Sequence: seqAfter(first.Sequence, int64(i))}, base+int64(i))
		}
		return
	}
	n.rememberSequence(first, base)
	if count > 1 {
		r, _ := n.lead.producers[first.ID].last()
		r.lastSeq = first.Sequence + int32(count) - 1
	}
}

// checkSequence applies the leader's idempotence rules to a produce batch of
// count records, the first with producer fields first (nil: no idempotence),
// as Kafka 3.7's ProducerAppendInfo.checkSequence and
// ProducerStateManager's duplicate check do: a retry of records it holds
// answers with their original base offset (duplicate true); a batch that
// continues the sequence (the one after the largest int32 being 0), or the
// first of a producer it does not know at any sequence (KIP-360: its
// records may have been deleted), or the first of a newer epoch, is
// appended; an older epoch is INVALID_PRODUCER_EPOCH, and anything else
// OUT_OF_ORDER_SEQUENCE_NUMBER.
//
// One difference: Kafka takes a newer epoch only at sequence 0 ("Invalid
// sequence number for new epoch"); here at any. The world's built-in
// producers renumber every record not yet acknowledged when they bump
// their epoch, those in flight included, where Kafka's TransactionManager
// renumbers the partitions that caused the bump and lets the others'
// in-flight batches finish in the old epoch first; against Kafka's rule
// they would bump again and again.
func (n *Node) checkSequence(first *ProducerSequence, count int) (base int64, duplicate bool, code ErrorCode) {
	if first == nil {
		return 0, false, None
	}
	st := n.lead.producers[first.ID]
	if st == nil {
		return 0, false, None
	}
	latest, ok := st.latest()
	if !ok {
		return 0, false, None
	}
	switch {
	case first.Epoch < latest.epoch:
		return 0, false, InvalidProducerEpoch
	case first.Epoch > latest.epoch:
		return 0, false, None
	}
	if off, ok := st.holds(first.Epoch, first.Sequence, count); ok {
		return off, true, None
	}
	if first.Sequence != seqAfter(latest.lastSeq, 1) {
		return 0, false, OutOfOrderSequenceNumber
	}
	return 0, false, None
}

// holds reports whether the runs hold count sequences of epoch from seq
// (wrapping past the largest int32), at consecutive offsets: a retry of
// records already in the log, and the offset of the first.
func (st *producerState) holds(epoch int16, seq int32, count int) (int64, bool) {
	var base int64
	for done := 0; done < count; {
		// the part of the batch up to the wrap, or all of it
		part := min(int64(count-done), int64(math.MaxInt32)-int64(seq)+1)
		last := seq + int32(part-1)
		r, found := st.find(epoch, seq, last)
		if !found {
			return 0, false
		}
		off := r.firstOffset + int64(seq-r.firstSeq)
		if done == 0 {
			base = off
		} else if off != base+int64(done) {
			return 0, false
		}
		done += int(part)
		seq = 0
	}
	return base, true
}
