package replica

import (
	"fmt"
	"math"
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
type producerState struct {
	runs []producerRun
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
	if k := len(st.runs); k > 0 {
		last := &st.runs[k-1]
		if last.epoch == p.Epoch && p.Sequence == last.lastSeq+1 && offset == last.firstOffset+int64(p.Sequence-last.firstSeq) {
			last.lastSeq = p.Sequence
			return
		}
	}
	st.runs = append(st.runs, producerRun{epoch: p.Epoch, firstSeq: p.Sequence, lastSeq: p.Sequence, firstOffset: offset})
}

// rememberBatch remembers count records of one producer with consecutive
// sequences from first at consecutive offsets from base, as rememberSequence
// for each of them would.
func (n *Node) rememberBatch(first ProducerSequence, count int, base int64) {
	if last := int64(first.Sequence) + int64(count) - 1; last > math.MaxInt32 {
		// The sequences wrap past the largest int32 (Kafka starts them again
		// at 0): remember them one by one, as the runs do not wrap.
		for i := range count {
			n.rememberSequence(ProducerSequence{ID: first.ID, Epoch: first.Epoch, Sequence: first.Sequence + int32(i)}, base+int64(i))
		}
		return
	}
	n.rememberSequence(first, base)
	if count > 1 {
		st := n.lead.producers[first.ID]
		st.runs[len(st.runs)-1].lastSeq = first.Sequence + int32(count) - 1
	}
}

// checkSequence applies the leader's idempotence rules to a produce batch of
// count records, the first with producer fields first (nil: no idempotence):
// a retry of records it holds answers with their original base offset
// (duplicate true); a batch that continues the sequence, or the first one
// of a producer or epoch it does not know, is appended; anything else is
// refused.
func (n *Node) checkSequence(first *ProducerSequence, count int) (base int64, duplicate bool, code ErrorCode) {
	if first == nil {
		return 0, false, None
	}
	lastSeq := first.Sequence + int32(count) - 1
	st := n.lead.producers[first.ID]
	if st == nil || len(st.runs) == 0 {
		return 0, false, None
	}
	latest := st.runs[len(st.runs)-1]
	switch {
	case first.Epoch < latest.epoch:
		return 0, false, InvalidProducerEpoch
	case first.Epoch > latest.epoch:
		return 0, false, None
	}
	for _, r := range st.runs {
		if r.epoch == first.Epoch && first.Sequence >= r.firstSeq && lastSeq <= r.lastSeq {
			return r.firstOffset + int64(first.Sequence-r.firstSeq), true, None
		}
	}
	if first.Sequence != latest.lastSeq+1 {
		return 0, false, OutOfOrderSequenceNumber
	}
	return 0, false, None
}
