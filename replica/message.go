package replica

import "fmt"

// MessageType says what a [Message] is.
type MessageType int

// The message types. Requests name their answer in their doc comment.
const (
	// MsgProduce is a producer's Produce request to the leader: Records (or
	// Batch), Acks, TimeoutMs and CorrelationID. Its answer is a [ProduceResponse] in
	// [Ready.ProduceResponses] (none for acks=0).
	MsgProduce MessageType = iota
	// MsgFetch is a follower's Fetch: FetchOffset (its LEO),
	// LastFetchedEpoch (V3_7+), CurrentLeaderEpoch (V2_1+), MaxWaitMs.
	// Answered by MsgFetchResponse.
	MsgFetch
	// MsgFetchResponse answers MsgFetch: Entries, HighWatermark and
	// LogStartOffset, or DivergingEpoch (V3_7+), or an Error. For
	// OFFSET_OUT_OF_RANGE it carries the leader's LogStartOffset and
	// LogEndOffset, standing for the ListOffsets round trip of
	// AbstractFetcherThread.handleOutOfRangeError.
	MsgFetchResponse
	// MsgOffsetsForLeaderEpoch asks the leader where epoch Epoch ends
	// (V0_11, V2_0, V2_1). CurrentLeaderEpoch is set under V2_1.
	MsgOffsetsForLeaderEpoch
	// MsgOffsetsForLeaderEpochResponse answers with (Epoch, EndOffset); V0_11
	// answers only EndOffset and leaves Epoch at [NoEpoch].
	MsgOffsetsForLeaderEpochResponse
	// MsgAlterPartitionResponse is the controller's answer to an
	// [AlterPartition]: the committed ISR and partition epoch, or an Error
	// (INVALID_UPDATE_VERSION for a stale partition epoch).
	MsgAlterPartitionResponse
	// MsgFetchHeld tells a follower that the leader keeps its MsgFetch
	// (same CorrelationID and FetchOffset) in their incremental fetch
	// session (KIP-227, [RuleSet.FetchSessions]): the partition has nothing
	// new, so the broker-level fetches that go on between the two brokers
	// every replica.fetch.wait.max.ms leave it out, and the follower sends
	// no new fetch for it. The leader answers the held fetch with a
	// MsgFetchResponse when the partition has something (records, a new
	// HW, a leadership change), and the follower fetches again from there.
	// While held, the follower counts as fetching at its fetch offset at
	// every moment, as Kafka's leader reads every partition of the
	// session at each fetch (FetchSession.scala's
	// IncrementalFetchContext.foreachPartition), without sending a
	// message per partition and per fetch.
	MsgFetchHeld
)

var messageTypeNames = [...]string{
	"Produce", "Fetch", "FetchResponse", "OffsetsForLeaderEpoch",
	"OffsetsForLeaderEpochResponse", "AlterPartitionResponse", "FetchHeld",
}

// String returns the type's Kafka-style name, e.g. "FetchResponse".
func (t MessageType) String() string {
	if t < 0 || int(t) >= len(messageTypeNames) {
		return fmt.Sprintf("MessageType(%d)", int(t))
	}
	return messageTypeNames[t]
}

// Message is a request or answer between replicas, or from a producer or the
// controller to a replica. Which fields matter depends on Type. Messages are
// values: a [Node] never keeps a reference to a stepped message's slices, and
// the caller must not modify the slices of messages the Node emits.
type Message struct {
	Type MessageType
	// From and To are broker ids (From is the producer's id for MsgProduce
	// and unused for MsgAlterPartitionResponse).
	From, To int32
	// CorrelationID pairs an answer with its request; a replica ignores
	// answers to requests it no longer waits for.
	CorrelationID int64
	// Error is the answer's protocol error code.
	Error ErrorCode

	// CurrentLeaderEpoch is the sender's idea of the leader epoch (fencing,
	// V2_1+; [NoEpoch] when not sent). Answers echo it.
	CurrentLeaderEpoch int32
	// FetchOffset is the follower's LEO (MsgFetch and its answer).
	FetchOffset int64
	// LastFetchedEpoch is the epoch of the follower's last record (V3_7+;
	// [NoEpoch] when its log has none).
	LastFetchedEpoch int32
	// MaxWaitMs is how long the leader may park a fetch that finds nothing.
	MaxWaitMs int64
	// Incremental, in a MsgFetch, says the follower fetches in the
	// session it already has with the leader, holding the HW of the
	// leader's last answer (Kafka's FetchMetadata with an epoch above 0);
	// false opens a new session (epoch 0: a full fetch): the follower
	// just started, follows a new leader, or its session ended.
	Incremental bool
	// Entries are the records a fetch answer carries.
	Entries []Entry
	// HighWatermark is the leader's HW in a fetch answer: the value before
	// this fetch was applied for an immediate answer (KAFKA-7104), the value
	// at completion for a parked one.
	HighWatermark int64
	// LogStartOffset and LogEndOffset are the leader's, in fetch answers.
	LogStartOffset, LogEndOffset int64
	// DivergingEpoch, in a V3_7+ fetch answer, says the follower's log
	// diverges: the leader's (largest epoch ≤ LastFetchedEpoch, its end).
	DivergingEpoch *EpochEndOffset

	// Epoch is the epoch asked about (MsgOffsetsForLeaderEpoch) or the epoch
	// answered (its response).
	Epoch int32
	// EndOffset is the OffsetsForLeaderEpoch answer ([UndefinedOffset] when
	// the leader has none).
	EndOffset int64

	// Records, Acks and TimeoutMs make up a Produce request. Acks is 0, 1 or
	// -1 (all). Batch, when set, stands for Records: the records as one
	// batch of bytes, for a leader whose log is a [BatchLog].
	Records   []Record
	Batch     *ProducerBatch
	Acks      int16
	TimeoutMs int64

	// ISR, LeaderEpoch and PartitionEpoch make up an AlterPartition answer.
	ISR            []int32
	LeaderEpoch    int32
	PartitionEpoch int32
}

// EpochEndOffset is an (epoch, end offset) pair, as in OffsetsForLeaderEpoch
// answers and DivergingEpoch.
type EpochEndOffset struct {
	Epoch     int32
	EndOffset int64
}

// ProduceResponse is the leader's answer to a Produce request.
type ProduceResponse struct {
	// To is the producer's id, as sent in [Message.From].
	To int32
	// CorrelationID is the request's.
	CorrelationID int64
	// Error is NONE or why the records were not (or not safely) written.
	Error ErrorCode
	// BaseOffset is the offset of the first record, -1 if not appended.
	BaseOffset int64
}

// AlterPartition is a leader's proposal to the controller to change the ISR
// (KIP-497): an AlterPartition request under KRaft, a conditional ZooKeeper
// write in older versions. The controller answers with a
// MsgAlterPartitionResponse.
type AlterPartition struct {
	// From is the proposing leader.
	From int32
	// LeaderEpoch and PartitionEpoch are the leader's current ones; the
	// controller refuses a proposal with a stale partition epoch.
	LeaderEpoch, PartitionEpoch int32
	// ISR is the proposed ISR, sorted.
	ISR []int32
	// CorrelationID identifies this proposal; the controller's answer should
	// carry it in [Message.CorrelationID], so that an answer to an earlier
	// proposal is not taken for this one's. (An answer with 0 is matched to
	// whatever proposal is pending.)
	CorrelationID int64
}
