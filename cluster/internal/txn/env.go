package txn

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Env is what the coordinator asks of the world.
type Env interface {
	// Now is the world's time in milliseconds.
	Now() int64
	event.Recorder
	// Send puts a message on the network: an answer to a client, a
	// WriteTxnMarkers to a partition's leader.
	Send(e netsim.Envelope)
	// AppendLog appends one record (the state of a transactional id) to
	// the coordinator's broker's replica of __transaction_state partition
	// p, which must lead it, with acks=all; the leader's answer comes to
	// [Coordinator.Step] as a produce answer carrying corr. It returns a
	// Kafka error code when the append could not be handed to the replica
	// (0 when it was).
	AppendLog(p int32, corr int64, key, value []byte) int16
	// ReadLog returns the records of the broker's replica of
	// __transaction_state partition p, in offset order, up to its log end:
	// what a new coordinator loads.
	ReadLog(p int32) []LogRecord
	// PartitionLeader returns the broker leading tp, or -1 when none does;
	// exists is false for a partition that does not exist (a deleted
	// topic's).
	PartitionLeader(tp kafkalog.TopicPartition) (leader int32, exists bool)
	// BrokerGone reports whether broker id's connection, made when it was
	// at incarnation inc, is broken: the process ended or restarted. A
	// broker whose power is cut does not say so: the request waits for
	// its timeout.
	BrokerGone(id int32, inc int) bool
	// BrokerIncarnation returns broker id's process incarnation.
	BrokerIncarnation(id int32) int
	// AllocateProducerID returns a new producer id of the cluster's
	// (ProducerIdManager).
	AllocateProducerID() int64
}

// LogRecord is one record of __transaction_state: a transactional id's
// key and value (nil for a tombstone).
type LogRecord struct {
	Key, Value []byte
}

// Config is the coordinator's settings, Kafka's broker configs.
type Config struct {
	// BrokerID is the broker the coordinator runs in.
	BrokerID int32
	// NumPartitions is transaction.state.log.num.partitions (50).
	NumPartitions int
	// OffsetsTopicNumPartitions is offsets.topic.num.partitions (50): a
	// group's __consumer_offsets partition joins a transaction with
	// AddOffsetsToTxn.
	OffsetsTopicNumPartitions int
	// MaxTimeoutMs is transaction.max.timeout.ms (900000): an
	// InitProducerId asking for more is INVALID_TRANSACTION_TIMEOUT.
	MaxTimeoutMs int32
	// AbortTimedOutIntervalMs is
	// transaction.abort.timed.out.transaction.cleanup.interval.ms (10000).
	AbortTimedOutIntervalMs int64
	// RequestTimeoutMs is request.timeout.ms (30000): a WriteTxnMarkers
	// unanswered that long is sent again.
	RequestTimeoutMs int64
	// TransactionVersion is the cluster's finalized transaction.version:
	// 0 for Kafka 3.7, 2 for Kafka 4.x (KIP-890's epoch bump per
	// transaction for the clients that use it; the log's values at
	// version 1).
	TransactionVersion int16
}

// The defaults of Kafka's configs.
const (
	DefaultNumPartitions           = 50
	DefaultMaxTimeoutMs            = 900000
	DefaultAbortTimedOutIntervalMs = 10000
	DefaultRequestTimeoutMs        = 30000
	// DefaultTimeoutMs is the producer's transaction.timeout.ms (60000).
	DefaultTimeoutMs = 60000
)

func (c Config) withDefaults() Config {
	if c.NumPartitions == 0 {
		c.NumPartitions = DefaultNumPartitions
	}
	if c.OffsetsTopicNumPartitions == 0 {
		c.OffsetsTopicNumPartitions = DefaultNumPartitions
	}
	if c.MaxTimeoutMs == 0 {
		c.MaxTimeoutMs = DefaultMaxTimeoutMs
	}
	if c.AbortTimedOutIntervalMs == 0 {
		c.AbortTimedOutIntervalMs = DefaultAbortTimedOutIntervalMs
	}
	if c.RequestTimeoutMs == 0 {
		c.RequestTimeoutMs = DefaultRequestTimeoutMs
	}
	return c
}
