package client

import (
	"math/rand/v2"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Env is what the clients need from the world around them. Each call to a
// machine gets it; no machine keeps it.
type Env interface {
	event.Recorder
	// Now is the world's time in milliseconds.
	Now() int64
	// Send puts a message on the network, at once (the network is a FIFO).
	Send(e netsim.Envelope)
	// Rand is the world's random generator (the sticky partitioners draw
	// from it).
	Rand() *rand.Rand
	// Topics returns the topics, sorted by name, as a metadata response
	// lists them. The caller must not modify them.
	Topics() []metadata.Topic
	// PartitionCount returns topic's number of partitions, false when
	// there is no such topic.
	PartitionCount(topic string) (int32, bool)
	// LogConfig returns the configuration topic's logs follow.
	LogConfig(topic string) kafkalog.Config
	// PartitionLeader returns the controller's leader of a partition
	// (replica.NoLeader if none).
	PartitionLeader(topic string, partition int32) int32
	// LeaderLog returns the log of a partition's leader as a consumer
	// reads it: nil when the partition has no leader, the consumers' link
	// to it is cut, or the broker does not run or does not lead it. It is
	// valid during the call only.
	LeaderLog(tp kafkalog.TopicPartition) LeaderLog
	// Cut reports whether the link between nodes a and b is cut.
	Cut(a, b int32) bool
	// Coordinator returns the broker FindCoordinator names for group: the
	// running leader of its __consumer_offsets partition; false if none.
	Coordinator(group string) (int32, bool)
	// TxnCoordinator returns the broker FindCoordinator (key type 1) names
	// for transactional id id: the running leader of its
	// __transaction_state partition, once loaded; false if none.
	// EnsureTxnStateTopic creates __transaction_state if it does not
	// exist, as a broker does at the first such FindCoordinator.
	TxnCoordinator(id string) (int32, bool)
	EnsureTxnStateTopic() error
	// TransactionVersion is the cluster's finalized transaction.version,
	// as ApiVersions tells a client (KIP-584): from 2 a transactional
	// producer uses KIP-890 part 2.
	TransactionVersion() int16
	// EnsureOffsetsTopic creates __consumer_offsets if it does not exist,
	// as a broker does at the first FindCoordinator.
	EnsureOffsetsTopic() error
	// CommittedOffset answers an OffsetFetch with require_stable (KIP-447)
	// of group's committed offset of tp, read at the group's coordinator
	// (as the simple consumers read their leader's log): found is false
	// without one; code is UNSTABLE_OFFSET_COMMIT while a transactional
	// commit of tp is pending, NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE
	// when no broker can answer for the group.
	CommittedOffset(group string, tp kafkalog.TopicPartition) (offset int64, found bool, code int16)
	// MarkProcessed notes that group processed offset of tp, and reports
	// whether it had processed it before (the world keeps a [Progress]).
	MarkProcessed(group string, tp kafkalog.TopicPartition, offset int64) bool
}

// LeaderLog is a partition's leader replica as a consumer reads it: its
// offsets and high watermark, and the fetch of its records.
type LeaderLog interface {
	// Broker is the leader's broker id.
	Broker() int32
	// HighWatermark, LogStartOffset and LogEndOffset are the replica's.
	HighWatermark() int64
	LogStartOffset() int64
	LogEndOffset() int64
	// LastStableOffset is the partition's last stable offset: the high
	// watermark, or below it the first offset of the earliest
	// transaction still open.
	LastStableOffset() int64
	// AbortedTxns returns the aborted transactions a read_committed fetch
	// from pos up to limit learns of (producer id and first offset).
	AbortedTxns(pos, limit int64) []kafkalog.AbortedTxn
	// DamageFrom returns the first damaged bytes of the log holding
	// offsets from pos on (bytes that did not decode when the leader
	// opened its log), nil if none.
	DamageFrom(pos int64) *replicalog.Damage
	// Fetch returns what a fetch at pos gets, at most limit records: the
	// log's records from pos, or those of the batches the learner's lookup
	// part reads (byPart), which may begin above or below pos; stuck is
	// set when that read brought nothing although the log holds records
	// there below the high watermark.
	Fetch(pos int64, limit int) (entries []replica.Entry, byPart, stuck bool)
	// NextOffset returns the offset of the first record at or above pos,
	// false past the last.
	NextOffset(pos int64) (int64, bool)
	// Count returns how many records the log holds at offsets in [first,
	// last] (the cleaner removes some).
	Count(first, last int64) int
}
