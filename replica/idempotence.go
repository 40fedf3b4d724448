package replica

import (
	"fmt"
	"math"
)

// Error codes of idempotent produce (KIP-98).
const (
	// OutOfOrderSequenceNumber: the batch does not continue the producer's
	// sequence, is not a retry of one of the batches the leader keeps, or
	// starts a newer producer epoch at a sequence other than 0.
	OutOfOrderSequenceNumber ErrorCode = 45
	// InvalidProducerEpoch: the producer epoch is older than the one the
	// leader knows.
	InvalidProducerEpoch ErrorCode = 47
)

// BatchesRetained is how many of a producer's latest batches a leader keeps
// to recognise their retries: Kafka's
// ProducerStateEntry.NUM_BATCHES_TO_RETAIN, the reason its producer keeps at
// most five requests in flight per connection with idempotence
// (max.in.flight.requests.per.connection).
const BatchesRetained = 5

// noSequence is Kafka's RecordBatch.NO_SEQUENCE: the last sequence of a
// producer epoch that has no batch yet.
const noSequence int32 = -1

// seqAfter is the sequence n after seq: sequences count from 0 to the
// largest int32 and start again at 0 (DefaultRecordBatch.incrementSequence).
// seqAfter(noSequence, 1) is 0.
func seqAfter(seq int32, n int64) int32 {
	return int32((int64(seq) + n) % (math.MaxInt32 + 1))
}

// batchMeta is one batch of a producer that the leader keeps (Kafka's
// BatchMetadata): its first and last sequence (the last below the first
// when it spans the wrap) and the offset of its first record.
type batchMeta struct {
	firstSeq, lastSeq int32
	firstOffset       int64
}

// producerState is what a leader knows of one idempotent producer (Kafka's
// ProducerStateEntry): its latest epoch and that epoch's last batches,
// oldest first, at most [BatchesRetained] of them. It is a value of fixed
// size: a clone copies it, and nothing grows with the producer's history.
type producerState struct {
	epoch   int16
	n       int8
	batches [BatchesRetained]batchMeta
}

// lastSeq is the last sequence the producer's epoch has written,
// noSequence when it has no batch.
func (st *producerState) lastSeq() int32 {
	if st.n == 0 {
		return noSequence
	}
	return st.batches[st.n-1].lastSeq
}

// add remembers a batch of epoch: a new epoch forgets the older one's
// batches (ProducerStateEntry.maybeUpdateProducerEpoch), and the oldest of
// five falls off (addBatchMetadata).
func (st *producerState) add(epoch int16, b batchMeta) {
	if epoch != st.epoch {
		st.epoch, st.n = epoch, 0
	}
	if int(st.n) == BatchesRetained {
		copy(st.batches[:], st.batches[1:])
		st.n--
	}
	st.batches[st.n] = b
	st.n++
}

// duplicate returns the kept batch of epoch whose sequences are exactly
// first to last (ProducerStateEntry.findDuplicateBatch): a retry of it.
func (st *producerState) duplicate(epoch int16, first, last int32) (batchMeta, bool) {
	if epoch != st.epoch {
		return batchMeta{}, false
	}
	for _, b := range st.batches[:st.n] {
		if b.firstSeq == first && b.lastSeq == last {
			return b, true
		}
	}
	return batchMeta{}, false
}

// rebuildProducers reads the whole log to learn the producers' last batches,
// as a new leader has them from its producer snapshots and log (a Kafka
// follower keeps them as it appends). A batch starts at an entry marked as
// the start of one (Entry.BatchStart, or the bytes of a batch in
// Entry.Batch) and at any entry that does not continue the one before it
// (another producer or epoch, a sequence or offset that does not follow).
func (n *Node) rebuildProducers() error {
	n.lead.producers = map[int64]producerState{}
	var run runReader
	for from := n.log.LogStartOffset(); from < n.log.LogEndOffset(); {
		entries, err := n.log.Read(from, n.cfg.ReplicaFetchMaxBytes)
		if err != nil {
			return fmt.Errorf("%w: broker %d: read producer state at %d: %w", ErrLog, n.cfg.ID, from, err)
		}
		if len(entries) == 0 {
			break
		}
		for i := range entries {
			run.read(n, &entries[i])
		}
		last := entries[len(entries)-1].Offset
		if last < from {
			// a Log must return entries at from or later, in offset order
			return fmt.Errorf("%w: broker %d: read producer state at %d: the log returned entries up to offset %d", ErrLog, n.cfg.ID, from, last)
		}
		from = last + 1
	}
	run.flush(n)
	return nil
}

// runReader gathers the batch being read by rebuildProducers.
type runReader struct {
	open       bool
	id         int64
	epoch      int16
	batch      batchMeta
	lastOffset int64
}

// read adds entry e to the batch being read, or ends it and starts another.
func (r *runReader) read(n *Node, e *Entry) {
	p := e.Producer
	if p != nil && r.open && !e.BatchStart && e.Batch == nil && p.ID == r.id && p.Epoch == r.epoch &&
		p.Sequence == seqAfter(r.batch.lastSeq, 1) && e.Offset == r.lastOffset+1 {
		r.batch.lastSeq, r.lastOffset = p.Sequence, e.Offset
		return
	}
	r.flush(n)
	if p != nil {
		*r = runReader{open: true, id: p.ID, epoch: p.Epoch, batch: batchMeta{firstSeq: p.Sequence, lastSeq: p.Sequence, firstOffset: e.Offset}, lastOffset: e.Offset}
	}
}

// flush remembers the batch being read, if any.
func (r *runReader) flush(n *Node) {
	if r.open {
		n.rememberBatch(r.id, r.epoch, r.batch)
		r.open = false
	}
}

// rememberBatch adds batch b of producer id's epoch to what the leader
// keeps of it.
func (n *Node) rememberBatch(id int64, epoch int16, b batchMeta) {
	st := n.lead.producers[id]
	st.add(epoch, b)
	n.lead.producers[id] = st
}

// checkSequence applies the leader's idempotence rules to a produce batch of
// count records, the first with producer fields first (nil: no
// idempotence), in the order of Kafka's UnifiedLog.append (3.7 and 4.x
// alike):
//  1. a batch of the producer's current epoch whose sequences are exactly
//     those of one of the last [BatchesRetained] batches it wrote is a retry:
//     it is answered with that batch's base offset (duplicate true) and not
//     written again (UnifiedLog.analyzeAndValidateProducerState,
//     ProducerStateEntry.findDuplicateBatch);
//  2. an epoch older than the producer's is INVALID_PRODUCER_EPOCH
//     (ProducerAppendInfo.checkProducerEpoch; KIP-588, 2.7);
//  3. a newer epoch must start at sequence 0, and a batch of the current
//     epoch must continue its last sequence (0 after the largest int32),
//     else OUT_OF_ORDER_SEQUENCE_NUMBER (ProducerAppendInfo.checkSequence): a
//     gap, and a retry of a batch older than the five kept or of part of
//     one, are refused alike.
//
// A producer the leader does not know (its records all deleted, or never
// written here) may start at any sequence (KIP-360).
func (n *Node) checkSequence(first *ProducerSequence, count int) (base int64, duplicate bool, code ErrorCode) {
	if first == nil {
		return 0, false, None
	}
	st, known := n.lead.producers[first.ID]
	if !known {
		return 0, false, None
	}
	if b, ok := st.duplicate(first.Epoch, first.Sequence, seqAfter(first.Sequence, int64(count)-1)); ok {
		return b.firstOffset, true, None
	}
	switch {
	case first.Epoch < st.epoch:
		return 0, false, InvalidProducerEpoch
	case first.Epoch != st.epoch && first.Sequence != 0:
		return 0, false, OutOfOrderSequenceNumber
	case first.Epoch == st.epoch && first.Sequence != seqAfter(st.lastSeq(), 1):
		return 0, false, OutOfOrderSequenceNumber
	}
	return 0, false, None
}
