package txn

import (
	"fmt"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Metadata is a transactional id's state at its coordinator (Kafka's
// TransactionMetadata).
type Metadata struct {
	// ID is the transactional id; Partition its __transaction_state
	// partition.
	ID        string
	Partition int32
	// ProducerID is the producer id in use; PrevProducerID the one before
	// (KIP-890's rotation), NextProducerID the one handed out after an
	// epoch overflow and not in use yet (-1: none).
	ProducerID, PrevProducerID, NextProducerID int64
	// Epoch is the producer epoch; LastEpoch the one before the last bump
	// (-1 after a new producer fenced the old), which lets a producer that
	// never got InitProducerId's answer retry it (KIP-360).
	Epoch, LastEpoch int16
	// TimeoutMs is the producer's transaction.timeout.ms.
	TimeoutMs int32
	// State is the transaction's state.
	State kafkalog.TxnState
	// Partitions are the partitions in the transaction, sorted.
	Partitions []kafkalog.TopicPartition
	// StartMs is when the transaction began (-1: none); LastUpdateMs when
	// the state last changed.
	StartMs, LastUpdateMs int64
	// ClientTV is the transaction.version the producer uses (2: an epoch
	// bump per transaction).
	ClientTV int16
	// Pending is the state a write in flight moves to (pendingState);
	// HasPending says one is.
	Pending    kafkalog.TxnState
	HasPending bool
	// failedFence is hasFailedEpochFence: an epoch fence whose write failed
	// already bumped the epoch in memory, and the next does not bump again.
	failedFence bool
}

// noProducerID is RecordBatch.NO_PRODUCER_ID (and NO_PRODUCER_EPOCH).
const noProducerID = -1

// epochExhausted is TransactionMetadata.isEpochExhausted: no epoch is handed
// to a client at Short.MaxValue, so that a coordinator can always fence.
func epochExhausted(epoch int16) bool { return epoch >= math.MaxInt16-1 }

// transit is a state a write is to move a transactional id to
// (TxnTransitMetadata): the Metadata fields it sets.
type transit struct {
	ProducerID, PrevProducerID, NextProducerID int64
	Epoch, LastEpoch                           int16
	TimeoutMs                                  int32
	State                                      kafkalog.TxnState
	Partitions                                 []kafkalog.TopicPartition
	StartMs, LastUpdateMs                      int64
	ClientTV                                   int16
}

// validPrevious lists, per state, the states it may follow
// (TransactionState.validPreviousStates).
var validPrevious = map[kafkalog.TxnState][]kafkalog.TxnState{
	kafkalog.TxnEmpty:             {kafkalog.TxnEmpty, kafkalog.TxnCompleteCommit, kafkalog.TxnCompleteAbort},
	kafkalog.TxnOngoing:           {kafkalog.TxnOngoing, kafkalog.TxnEmpty, kafkalog.TxnCompleteCommit, kafkalog.TxnCompleteAbort},
	kafkalog.TxnPrepareCommit:     {kafkalog.TxnOngoing},
	kafkalog.TxnPrepareAbort:      {kafkalog.TxnOngoing, kafkalog.TxnPrepareEpochFence, kafkalog.TxnEmpty, kafkalog.TxnCompleteCommit, kafkalog.TxnCompleteAbort},
	kafkalog.TxnCompleteCommit:    {kafkalog.TxnPrepareCommit},
	kafkalog.TxnCompleteAbort:     {kafkalog.TxnPrepareAbort},
	kafkalog.TxnDead:              {kafkalog.TxnEmpty, kafkalog.TxnCompleteAbort, kafkalog.TxnCompleteCommit},
	kafkalog.TxnPrepareEpochFence: {kafkalog.TxnOngoing},
}

// prepare makes the pending transition to t (prepareTransitionTo): an
// error for a transition the state machine does not allow, which would be
// the coordinator's own bug.
func (m *Metadata) prepare(t transit) (transit, error) {
	if m.HasPending {
		return t, fmt.Errorf("txn: %s: preparing a transition to %s while %s is pending", m.ID, t.State, m.Pending)
	}
	if !slices.Contains(validPrevious[t.State], m.State) {
		return t, fmt.Errorf("txn: %s: %s is not a valid state after %s", m.ID, t.State, m.State)
	}
	m.Pending, m.HasPending = t.State, true
	return t, nil
}

// base is the transit that changes nothing but the state's time.
func (m *Metadata) base(nowMs int64) transit {
	return transit{ProducerID: m.ProducerID, PrevProducerID: m.ProducerID, NextProducerID: noProducerID, Epoch: m.Epoch, LastEpoch: m.LastEpoch,
		TimeoutMs: m.TimeoutMs, State: m.State, Partitions: m.Partitions, StartMs: m.StartMs, LastUpdateMs: nowMs}
}

// prepareIncrementEpoch is prepareIncrementProducerEpoch: InitProducerId on
// an id with no transaction open. expected is the epoch the producer says
// it has (-1: none given): the same as the current one (or no current one)
// bumps both epochs, the previous one is a retry of a bump it never heard
// of, anything else is PRODUCER_FENCED.
func (m *Metadata) prepareIncrementEpoch(timeoutMs int32, expected int16, given bool, nowMs int64) (transit, int16, error) {
	t := m.base(nowMs)
	t.State, t.TimeoutMs, t.Partitions, t.StartMs = kafkalog.TxnEmpty, timeoutMs, nil, -1
	bumped := m.Epoch + 1
	switch {
	case !given:
		t.Epoch, t.LastEpoch = bumped, noProducerID
	case m.Epoch == noProducerID || expected == m.Epoch:
		t.Epoch, t.LastEpoch = bumped, m.Epoch
	case expected == m.LastEpoch:
		t.Epoch, t.LastEpoch = m.Epoch, m.LastEpoch
	default:
		return t, producerFenced, nil
	}
	t, err := m.prepare(t)
	return t, 0, err
}

// prepareRotation is prepareProducerIdRotation: a new producer id at epoch
// 0, once the epochs of the old one ran out.
func (m *Metadata) prepareRotation(newPID int64, timeoutMs int32, recordLast bool, nowMs int64) (transit, error) {
	t := m.base(nowMs)
	t.State, t.ProducerID, t.Epoch, t.TimeoutMs, t.Partitions, t.StartMs = kafkalog.TxnEmpty, newPID, 0, timeoutMs, nil, -1
	t.LastEpoch = noProducerID
	if recordLast {
		t.LastEpoch = m.Epoch
	}
	return m.prepare(t)
}

// prepareFence is prepareFenceProducerEpoch: the epoch goes up, so that
// the producer's next request is fenced, on the way to aborting its
// transaction; a fence whose write failed does not bump again.
func (m *Metadata) prepareFence(nowMs int64) (transit, error) {
	if m.Epoch == math.MaxInt16 {
		return transit{}, fmt.Errorf("txn: %s: cannot fence producer with epoch equal to Short.MaxValue", m.ID)
	}
	t := m.base(m.LastUpdateMs)
	t.State, t.LastEpoch = kafkalog.TxnPrepareEpochFence, noProducerID
	if !m.failedFence {
		t.Epoch = m.Epoch + 1
	}
	_ = nowMs
	return m.prepare(t)
}

// prepareAddPartitions is prepareAddPartitions: the state becomes Ongoing
// with the partitions added; a new transaction starts now.
func (m *Metadata) prepareAddPartitions(added []kafkalog.TopicPartition, nowMs int64) (transit, error) {
	t := m.base(nowMs)
	t.State, t.Partitions = kafkalog.TxnOngoing, union(m.Partitions, added)
	switch m.State {
	case kafkalog.TxnEmpty, kafkalog.TxnCompleteAbort, kafkalog.TxnCompleteCommit:
		t.StartMs = nowMs
	}
	return m.prepare(t)
}

// prepareEnd is prepareAbortOrCommit: PrepareCommit or PrepareAbort; with
// transaction.version 2 the epoch goes up (and nextPID, when set, is the
// producer id of the next transaction).
func (m *Metadata) prepareEnd(state kafkalog.TxnState, clientTV int16, nextPID int64, nowMs int64) (transit, error) {
	t := m.base(nowMs)
	t.State, t.ClientTV, t.NextProducerID = state, clientTV, nextPID
	if clientTV >= 2 {
		t.Epoch, t.LastEpoch = m.Epoch+1, m.Epoch
	}
	return m.prepare(t)
}

// prepareComplete is prepareComplete: CompleteCommit or CompleteAbort once
// every marker is written, the partitions emptied; after an epoch overflow
// (transaction.version 2) the next producer id takes over at epoch 0.
func (m *Metadata) prepareComplete(nowMs int64) (transit, error) {
	t := m.base(nowMs)
	t.State, t.Partitions, t.ClientTV = kafkalog.TxnCompleteAbort, nil, m.ClientTV
	if m.State == kafkalog.TxnPrepareCommit {
		t.State = kafkalog.TxnCompleteCommit
	}
	m.failedFence = false
	t.LastEpoch = m.Epoch
	if m.ClientTV >= 2 && m.NextProducerID != noProducerID {
		t.ProducerID, t.Epoch = m.NextProducerID, 0
	}
	return m.prepare(t)
}

// complete applies a transit whose write succeeded (completeTransitionTo).
func (m *Metadata) complete(t transit) {
	switch t.State {
	case kafkalog.TxnEmpty:
		m.TimeoutMs, m.Epoch, m.LastEpoch, m.ProducerID, m.PrevProducerID = t.TimeoutMs, t.Epoch, t.LastEpoch, t.ProducerID, t.PrevProducerID
		m.Partitions, m.StartMs = nil, -1
	case kafkalog.TxnOngoing:
		m.StartMs, m.Partitions = t.StartMs, t.Partitions
	case kafkalog.TxnPrepareCommit, kafkalog.TxnPrepareAbort:
		if t.ClientTV >= 2 {
			m.Epoch, m.LastEpoch, m.NextProducerID = t.Epoch, t.LastEpoch, t.NextProducerID
		}
	case kafkalog.TxnCompleteCommit, kafkalog.TxnCompleteAbort:
		m.StartMs, m.Partitions = t.StartMs, nil
		if t.ClientTV >= 2 {
			m.Epoch, m.LastEpoch, m.PrevProducerID, m.ProducerID, m.NextProducerID = t.Epoch, t.LastEpoch, t.PrevProducerID, t.ProducerID, t.NextProducerID
		}
	}
	m.LastUpdateMs, m.ClientTV, m.State, m.HasPending = t.LastUpdateMs, t.ClientTV, t.State, false
}

// logValue is the __transaction_state value of t at version v.
func (t transit) logValue(v int16) kafkalog.TxnLogValue {
	out := kafkalog.TxnLogValue{Version: v, ProducerID: t.ProducerID, PreviousProducerID: -1, NextProducerID: -1, ProducerEpoch: t.Epoch,
		TransactionTimeoutMs: t.TimeoutMs, State: t.State, LastUpdateTimestampMs: t.LastUpdateMs, StartTimestampMs: t.StartMs}
	if v >= 1 {
		out.PreviousProducerID, out.NextProducerID, out.ClientTransactionVersion = t.PrevProducerID, t.NextProducerID, t.ClientTV
	}
	if t.State != kafkalog.TxnEmpty {
		out.Partitions = append([]kafkalog.TopicPartition{}, t.Partitions...)
	}
	return out
}

// fromLog is the Metadata a loaded value gives (readTxnRecordValue).
func fromLog(id string, partition int32, v kafkalog.TxnLogValue) *Metadata {
	m := &Metadata{ID: id, Partition: partition, ProducerID: v.ProducerID, PrevProducerID: v.PreviousProducerID, NextProducerID: v.NextProducerID,
		Epoch: v.ProducerEpoch, LastEpoch: noProducerID, TimeoutMs: v.TransactionTimeoutMs, State: v.State,
		StartMs: v.StartTimestampMs, LastUpdateMs: v.LastUpdateTimestampMs, ClientTV: v.ClientTransactionVersion}
	if v.State != kafkalog.TxnEmpty {
		m.Partitions = union(nil, v.Partitions)
	}
	return m
}

// union is the sorted union of a and b, without duplicates.
func union(a, b []kafkalog.TopicPartition) []kafkalog.TopicPartition {
	out := append(append([]kafkalog.TopicPartition{}, a...), b...)
	slices.SortFunc(out, metadata.ComparePartitions)
	return slices.Compact(out)
}

// subset reports whether every partition of b is in a (sorted).
func subset(a, b []kafkalog.TopicPartition) bool {
	for _, tp := range b {
		if _, ok := slices.BinarySearchFunc(a, tp, metadata.ComparePartitions); !ok {
			return false
		}
	}
	return true
}
