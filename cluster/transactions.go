package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// TransactionInfo is a transactional id as its coordinator knows it (what
// ListTransactions and DescribeTransactions answer).
type TransactionInfo struct {
	// Coordinator is the broker whose transaction coordinator has it.
	Coordinator     int32
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	// State is Kafka's name of its state: Empty, Ongoing, PrepareCommit,
	// PrepareAbort, CompleteCommit, CompleteAbort.
	State string
	// TimeoutMs is the producer's transaction.timeout.ms; StartMs when
	// the open transaction began (-1: none).
	TimeoutMs int32
	StartMs   int64
	// Partitions are the partitions in the transaction (those whose
	// markers are still to be written, once it ends).
	Partitions []kafkalog.TopicPartition
}

// Transactions returns the transactional ids the running brokers'
// transaction coordinators have, by id.
func (w *World) Transactions() []TransactionInfo {
	var out []TransactionInfo
	for _, b := range w.brokers {
		c := b.TxnCoordinator()
		if b.State() != BrokerRunning || c == nil {
			continue
		}
		for _, m := range c.Transactions() {
			out = append(out, TransactionInfo{Coordinator: b.ID(), TransactionalID: m.ID, ProducerID: m.ProducerID, ProducerEpoch: m.Epoch,
				State: m.State.String(), TimeoutMs: m.TimeoutMs, StartMs: m.StartMs, Partitions: slices.Clone(m.Partitions)})
		}
	}
	slices.SortFunc(out, func(a, b TransactionInfo) int { return strings.Compare(a.TransactionalID, b.TransactionalID) })
	return out
}

// AbortSpec names the transaction an [ActAbortHanging] aborts, as Kafka's
// AbortTransactionSpec does (with the action's topic and partition): the
// producer's id and epoch, and the coordinator epoch its ABORT marker
// carries (the partition's log refuses an epoch older than the one it
// knows).
type AbortSpec struct {
	ProducerID       int64
	ProducerEpoch    int16
	CoordinatorEpoch int32
}

// ProducerState is what a partition's log knows of one producer id (what
// DescribeProducers answers).
type ProducerState struct {
	ProducerID    int64
	ProducerEpoch int16
	// CoordinatorEpoch is that of its last marker (-1: none).
	CoordinatorEpoch int32
	LastSequence     int32
	LastTimestamp    int64
	// CurrentTxnStartOffset is the first offset of its open transaction
	// (-1: none).
	CurrentTxnStartOffset int64
}

// ErrNotLeaderOrFollower is Kafka's NOT_LEADER_OR_FOLLOWER: the broker
// asked holds no running replica of the partition (or it has no leader).
var ErrNotLeaderOrFollower = errors.New("cluster: NOT_LEADER_OR_FOLLOWER")

// PartitionProducers returns what broker's replica of the partition knows of its
// producers (broker 0: the leader's), as DescribeProducers answers it, by
// producer id; an error ([ErrUnknownTopicOrPartition],
// [ErrNotLeaderOrFollower]) says why none answers.
func (w *World) PartitionProducers(topic string, partition, broker int32) ([]ProducerState, error) {
	k := partitionKey{Topic: topic, Partition: partition}
	if t := w.ctl.Topic(topic); t == nil || partition < 0 || int(partition) >= len(t.Assignment) {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTopicOrPartition, k)
	}
	if broker == 0 {
		broker = w.ctl.Leader(k)
	}
	if broker < 1 || int(broker) > len(w.brokers) {
		return nil, fmt.Errorf("%w: %s has no leader", ErrNotLeaderOrFollower, k)
	}
	b := w.brokers[broker-1]
	s := b.Partition(k)
	if b.State() != BrokerRunning || s == nil {
		return nil, fmt.Errorf("%w: broker %d holds no running replica of %s", ErrNotLeaderOrFollower, broker, k)
	}
	var out []ProducerState
	for _, e := range s.Log.Kafka().Producers() {
		out = append(out, ProducerState{ProducerID: e.ProducerID, ProducerEpoch: e.ProducerEpoch, CoordinatorEpoch: e.CoordinatorEpoch,
			LastSequence: e.LastSequence, LastTimestamp: e.Timestamp, CurrentTxnStartOffset: e.CurrentTxnFirstOffset})
	}
	return out, nil
}
