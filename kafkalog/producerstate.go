package kafkalog

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Errors of the producer state checks a leader's append makes (Kafka 3.7's
// ProducerAppendInfo). Followers' appends are not checked: the leader did.
var (
	// ErrInvalidProducerEpoch means a batch, or a transaction marker, carries a
	// producer epoch older than the one the partition last saw for its
	// producer id: a zombie producer's write after a newer instance started,
	// or a transaction the coordinator aborted with a bumped epoch. Kafka:
	// InvalidProducerEpochException, INVALID_PRODUCER_EPOCH (47).
	ErrInvalidProducerEpoch = errors.New("kafkalog: invalid producer epoch")
	// ErrInvalidTxnState means a producer with a transaction open on the
	// partition wrote a batch that is not transactional. Kafka:
	// InvalidTxnStateException, INVALID_TXN_STATE (48).
	ErrInvalidTxnState = errors.New("kafkalog: invalid transaction state")
	// ErrCoordinatorFenced means a transaction marker carries a coordinator
	// epoch older than one the partition already saw for its producer: a
	// coordinator that lost its __transaction_state partition still writing.
	// Kafka: TransactionCoordinatorFencedException,
	// TRANSACTION_COORDINATOR_FENCED (52).
	ErrCoordinatorFenced = errors.New("kafkalog: transaction coordinator fenced")
)

// NoCurrentTxn is CurrentTxnFirstOffset of a producer with no transaction
// open on the partition.
const NoCurrentTxn int64 = -1

// OngoingTxn is a transaction open on the partition: a transactional
// producer wrote data at FirstOffset (its first batch since its last marker)
// and no COMMIT or ABORT marker followed yet. While it is open the last
// stable offset stays at or below FirstOffset (Kafka's TxnMetadata in
// ProducerStateManager.ongoingTxns).
type OngoingTxn struct {
	ProducerID  int64
	FirstOffset int64
}

// CompletedTxn is a transaction a marker ended on the partition (Kafka's
// CompletedTxn): its producer, the offset of its first batch, the offset of
// the marker, and whether the marker was ABORT.
type CompletedTxn struct {
	ProducerID  int64
	FirstOffset int64
	LastOffset  int64
	Aborted     bool
}

// producerState is what a partition log knows of its producers, as Kafka's
// ProducerStateManager keeps it: each producer's latest epoch, sequence,
// offset, timestamp, coordinator epoch and open transaction
// (ProducerSnapshotEntry, the fields of a .snapshot entry), the
// transactions still open, and those a marker ended but whose marker is not
// yet below the high watermark (unreplicated): both hold the last stable
// offset back. It is rebuilt from the log when the log opens or is
// truncated, as Kafka rebuilds it from its snapshots and the log after
// them.
type producerState struct {
	entries      map[int64]ProducerSnapshotEntry
	ongoing      []OngoingTxn   // by FirstOffset
	unreplicated []CompletedTxn // by FirstOffset
	// shared says the maps and slices are a clone's too: copied before
	// they are written.
	shared bool
}

// own makes st's maps and slices its own before a write.
func (st *producerState) own() {
	if !st.shared {
		return
	}
	st.entries = maps.Clone(st.entries)
	st.ongoing = slices.Clone(st.ongoing)
	st.unreplicated = slices.Clone(st.unreplicated)
	st.shared = false
}

// clone returns a copy of st sharing its maps and slices until either side
// writes.
func (st *producerState) clone() producerState {
	st.shared = true
	return *st
}

// reset empties st.
func (st *producerState) reset() {
	*st = producerState{}
}

// entry returns producer pid's entry, or an empty one (Kafka's
// ProducerStateEntry.empty: no epoch, no sequence, coordinator epoch -1).
func (st *producerState) entry(pid int64) ProducerSnapshotEntry {
	if e, ok := st.entries[pid]; ok {
		return e
	}
	return ProducerSnapshotEntry{ProducerID: pid, ProducerEpoch: NoProducerEpoch, LastSequence: NoSequence, LastOffset: -1,
		Timestamp: NoTimestamp, CoordinatorEpoch: -1, CurrentTxnFirstOffset: NoCurrentTxn}
}

// txnMarker is what a control batch says when it ends a transaction.
type txnMarker struct {
	commit           bool
	coordinatorEpoch int32
}

// readTxnMarker returns the marker a control batch's bytes hold, and false
// if it is none (another control record, or an empty batch the cleaner
// left, which changes nothing: ProducerAppendInfo.append).
func readTxnMarker(raw []byte) (txnMarker, bool) {
	b, _, err := ReadBatch(raw)
	if err != nil || len(b.Records) == 0 {
		return txnMarker{}, false
	}
	k, err := ParseControlRecordKey(b.Records[0].Key)
	if err != nil || !k.Type.IsTxnMarker() {
		return txnMarker{}, false
	}
	m, err := ParseEndTxnMarker(b.Records[0].Value)
	if err != nil {
		return txnMarker{}, false
	}
	return txnMarker{commit: k.Type == ControlCommit, coordinatorEpoch: m.CoordinatorEpoch}, true
}

// check refuses a batch a leader is to append, as Kafka 3.7's
// ProducerAppendInfo does for appends from clients and coordinators: an
// epoch older than the producer's (data and markers), a marker of an older
// coordinator epoch, and a data batch that is not transactional from a
// producer with a transaction open. (The sequences are the replica's to
// check.) e is the producer's entry as the batches before it in the same
// append left it.
func (e *ProducerSnapshotEntry) check(h *BatchHeader, m *txnMarker) error {
	if h.ProducerEpoch < e.ProducerEpoch {
		return fmt.Errorf("%w: epoch of producer %d at offset %d is %d, which is smaller than the last seen epoch %d",
			ErrInvalidProducerEpoch, h.ProducerID, h.BaseOffset, h.ProducerEpoch, e.ProducerEpoch)
	}
	if m != nil {
		if e.CoordinatorEpoch > m.coordinatorEpoch {
			return fmt.Errorf("%w: invalid coordinator epoch for producerId %d at offset %d: %d (zombie), %d (current)",
				ErrCoordinatorFenced, h.ProducerID, h.BaseOffset, m.coordinatorEpoch, e.CoordinatorEpoch)
		}
		return nil
	}
	if e.CurrentTxnFirstOffset != NoCurrentTxn && !h.Attributes.IsTransactional() {
		return fmt.Errorf("%w: expected transactional write from producer %d at offset %d", ErrInvalidTxnState, h.ProducerID, h.BaseOffset)
	}
	return nil
}

// update applies one batch to the producer's entry (ProducerAppendInfo.append
// and ProducerStateEntry.update) and returns the transaction it opened or
// ended, if any: started is true for a data batch that opens one, and done
// is set for a marker that ends one that wrote data here (a marker of a
// transaction without data here completes nothing: Kafka 3.7 emits no
// CompletedTxn for it).
func (e *ProducerSnapshotEntry) update(h *BatchHeader, m *txnMarker) (started bool, done *CompletedTxn) {
	if h.ProducerEpoch != e.ProducerEpoch {
		// maybeUpdateProducerEpoch: a new epoch forgets the batches
		e.ProducerEpoch, e.LastSequence, e.LastOffset, e.OffsetDelta = h.ProducerEpoch, NoSequence, -1, 0
	}
	if m != nil {
		if e.CurrentTxnFirstOffset != NoCurrentTxn {
			done = &CompletedTxn{ProducerID: h.ProducerID, FirstOffset: e.CurrentTxnFirstOffset, LastOffset: h.BaseOffset, Aborted: !m.commit}
		}
		e.CoordinatorEpoch, e.Timestamp, e.CurrentTxnFirstOffset = m.coordinatorEpoch, h.MaxTimestamp, NoCurrentTxn
		return false, done
	}
	e.LastSequence, e.LastOffset, e.OffsetDelta, e.Timestamp = h.LastSequence(), h.LastOffset(), h.LastOffsetDelta, h.MaxTimestamp
	if h.Attributes.IsTransactional() && e.CurrentTxnFirstOffset == NoCurrentTxn {
		e.CurrentTxnFirstOffset = h.BaseOffset
		return true, nil
	}
	return false, nil
}

// apply applies one batch of the log, in offset order, to the state, and
// returns the transaction its marker completed, if any (the caller records
// an aborted one in the transaction index, with the last stable offset
// lastStable gives, before the state forgets it was open).
func (st *producerState) apply(h *BatchHeader, m *txnMarker) *CompletedTxn {
	if h.ProducerID < 0 {
		return nil
	}
	st.own()
	if st.entries == nil {
		st.entries = map[int64]ProducerSnapshotEntry{}
	}
	e := st.entry(h.ProducerID)
	started, done := e.update(h, m)
	st.entries[h.ProducerID] = e
	if started {
		st.ongoing = append(st.ongoing, OngoingTxn{ProducerID: h.ProducerID, FirstOffset: h.BaseOffset})
	}
	return done
}

// complete moves a completed transaction from the open ones to the
// unreplicated ones (ProducerStateManager.completeTxn).
func (st *producerState) complete(t CompletedTxn) {
	st.own()
	st.ongoing = slices.DeleteFunc(st.ongoing, func(o OngoingTxn) bool { return o.FirstOffset == t.FirstOffset })
	i, _ := slices.BinarySearchFunc(st.unreplicated, t.FirstOffset, func(c CompletedTxn, first int64) int {
		return compareInt64(c.FirstOffset, first)
	})
	st.unreplicated = slices.Insert(st.unreplicated, i, t)
}

// lastStable is the last stable offset recorded with an aborted transaction
// in the transaction index (ProducerStateManager.lastStableOffset): the
// first offset of the earliest transaction of another producer still open,
// or the offset after the marker.
func (st *producerState) lastStable(t CompletedTxn) int64 {
	for _, o := range st.ongoing {
		if o.ProducerID != t.ProducerID {
			return o.FirstOffset
		}
	}
	return t.LastOffset + 1
}

// firstUnstable is the first offset of the earliest transaction that is
// open or whose marker is not below the high watermark hw
// (ProducerStateManager.firstUnstableOffset), and false if none.
func (st *producerState) firstUnstable(hw int64) (int64, bool) {
	first, ok := int64(0), false
	if len(st.ongoing) > 0 {
		first, ok = st.ongoing[0].FirstOffset, true
	}
	for _, t := range st.unreplicated {
		if t.LastOffset >= hw {
			if !ok || t.FirstOffset < first {
				first, ok = t.FirstOffset, true
			}
			break
		}
	}
	return first, ok
}

// onHighWatermark forgets the completed transactions whose markers are
// below hw (ProducerStateManager.onHighWatermarkUpdated).
func (st *producerState) onHighWatermark(hw int64) {
	if !slices.ContainsFunc(st.unreplicated, func(t CompletedTxn) bool { return t.LastOffset < hw }) {
		return
	}
	st.own()
	st.unreplicated = slices.DeleteFunc(st.unreplicated, func(t CompletedTxn) bool { return t.LastOffset < hw })
}

// expire forgets the producers whose last write is older than
// expirationMs before nowMs and that have no transaction open
// (ProducerStateManager.removeExpiredProducers with
// producer.id.expiration.ms). It reports how many it forgot.
func (st *producerState) expire(nowMs, expirationMs int64) int {
	var gone []int64
	for pid, e := range st.entries {
		if e.CurrentTxnFirstOffset == NoCurrentTxn && e.Timestamp != NoTimestamp && nowMs-e.Timestamp >= expirationMs {
			gone = append(gone, pid)
		}
	}
	if len(gone) == 0 {
		return 0
	}
	st.own()
	for _, pid := range gone {
		delete(st.entries, pid)
	}
	return len(gone)
}

func compareInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
