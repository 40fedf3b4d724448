package replica

import (
	"errors"
	"fmt"
)

// Errors returned by [NewNode], [Node.Step], [Node.BecomeLeader] and
// [Node.BecomeFollower]. They describe a caller's mistake or stale input;
// protocol outcomes travel as an [ErrorCode] inside messages instead.
var (
	// ErrInvalidConfig means a [Config] field is out of range.
	ErrInvalidConfig = errors.New("replica: invalid config")
	// ErrStaleLeaderEpoch means a LeaderAndIsr carried an older leader epoch
	// than the replica already knows; Kafka ignores such requests.
	ErrStaleLeaderEpoch = errors.New("replica: stale leader epoch")
	// ErrUnknownMessage means a message type the node does not handle.
	ErrUnknownMessage = errors.New("replica: unknown message type")
	// ErrWrongNode means a message addressed to another broker.
	ErrWrongNode = errors.New("replica: message for another broker")
	// ErrInvalidLeaderAndISR means a LeaderAndIsr that contradicts itself (the
	// leader not among the replicas, an ISR member that is not a replica...).
	ErrInvalidLeaderAndISR = errors.New("replica: invalid LeaderAndIsr")
	// ErrLog wraps an error returned by the [Log].
	ErrLog = errors.New("replica: log")
)

// ErrorCode is a Kafka protocol error code, as carried in Fetch, Produce,
// OffsetsForLeaderEpoch and AlterPartition answers. The values are Kafka's
// (org.apache.kafka.common.protocol.Errors).
type ErrorCode int16

// The protocol error codes the replication protocol uses.
const (
	None                ErrorCode = 0
	OffsetOutOfRange    ErrorCode = 1
	NotLeaderOrFollower ErrorCode = 6
	RequestTimedOut     ErrorCode = 7
	// NetworkException (NETWORK_EXCEPTION) answers a produce whose leader
	// lost its question to another broker (a transactional batch's
	// verification with its coordinator, KIP-890); a producer retries it.
	NetworkException             ErrorCode = 13
	NotEnoughReplicas            ErrorCode = 19
	NotEnoughReplicasAfterAppend ErrorCode = 20
	FencedLeaderEpoch            ErrorCode = 74
	UnknownLeaderEpoch           ErrorCode = 75
	InvalidUpdateVersion         ErrorCode = 95
)

// The produce codes of a batch too large for the partition's log.
const (
	// MessageTooLarge (MESSAGE_TOO_LARGE) answers a produce whose batch is
	// larger than max.message.bytes (RecordTooLargeException); the
	// producer's own check against max.request.size reports it too.
	MessageTooLarge ErrorCode = 10
	// RecordListTooLarge (RECORD_LIST_TOO_LARGE) answers a produce larger
	// than segment.bytes (RecordBatchTooLargeException, UnifiedLog.append
	// in Kafka 3.7).
	RecordListTooLarge ErrorCode = 18
)

// The produce codes of a batch the leader's log refuses to read (the
// simulated world's leader validates a producer's bytes when the learning
// kit's encoder made them: exercises/live).
const (
	// CorruptMessage (CORRUPT_MESSAGE) answers a produce whose batch fails
	// its CRC or whose length fields do not hold (CorruptRecordException in
	// LogValidator, Kafka 3.7). The producer retries it: the exception is a
	// RetriableException.
	CorruptMessage ErrorCode = 2
	// InvalidRecord (INVALID_RECORD) answers a produce whose batch passes its
	// CRC but holds a record that does not parse or does not match the
	// header (InvalidRecordException, LogValidator.validateRecord); not
	// retried.
	InvalidRecord ErrorCode = 87
)

// ErrCorruptMessage and ErrInvalidRecord, wrapped in the error of a [Log]'s
// AppendAsLeader, refuse the batch: the leader answers the produce with
// [CorruptMessage] or [InvalidRecord] and appends nothing. Wrapped in the
// error of AppendAsFollower, they refuse the fetched records (a leader's
// damaged bytes): the follower appends nothing and retries after
// replica.fetch.backoff.ms.
var (
	ErrCorruptMessage = errors.New("replica: corrupt message")
	ErrInvalidRecord  = errors.New("replica: invalid record")
)

// ErrRecordBatchTooLarge, wrapped in the error of AppendAsFollower, means
// the fetched records do not fit in a segment: segment.bytes was lowered
// below a batch the leader took before (Kafka 3.7's UnifiedLog.append
// throws RecordBatchTooLargeException). The follower appends nothing and
// retries after replica.fetch.backoff.ms, so it falls out of the ISR
// until segment.bytes is raised again; Kafka's fetcher marks the partition
// failed instead (AbstractFetcherThread.markPartitionFailed) and fetches
// it again only after a leader change.
var ErrRecordBatchTooLarge = errors.New("replica: fetched records larger than segment.bytes")

// The produce codes of a batch a leader's producer state refuses (Kafka
// 3.7's ProducerAppendInfo), carried by a [RefusedError].
const (
	// InvalidTxnState (INVALID_TXN_STATE) answers a batch that is not
	// transactional from a producer with a transaction open on the
	// partition, and a transactional batch the transaction coordinator says
	// is not part of its producer's transaction (KIP-890's verification).
	InvalidTxnState ErrorCode = 48
	// TransactionCoordinatorFenced (TRANSACTION_COORDINATOR_FENCED) answers a
	// transaction marker from a coordinator older than one the partition
	// already heard from.
	TransactionCoordinatorFenced ErrorCode = 52
)

// RefusedError is the error of a [Log]'s AppendAsLeader that refuses a
// produce with a protocol code of its own: the leader answers the produce
// with Code and appends nothing. Err says why.
type RefusedError struct {
	Code ErrorCode
	Err  error
}

// Error returns the code's name and why.
func (e *RefusedError) Error() string { return e.Code.String() + ": " + e.Err.Error() }

// Unwrap returns why.
func (e *RefusedError) Unwrap() error { return e.Err }

var errorCodeNames = map[ErrorCode]string{
	CorruptMessage:               "CORRUPT_MESSAGE",
	InvalidRecord:                "INVALID_RECORD",
	None:                         "NONE",
	OffsetOutOfRange:             "OFFSET_OUT_OF_RANGE",
	NotLeaderOrFollower:          "NOT_LEADER_OR_FOLLOWER",
	MessageTooLarge:              "MESSAGE_TOO_LARGE",
	RecordListTooLarge:           "RECORD_LIST_TOO_LARGE",
	RequestTimedOut:              "REQUEST_TIMED_OUT",
	NetworkException:             "NETWORK_EXCEPTION",
	NotEnoughReplicas:            "NOT_ENOUGH_REPLICAS",
	NotEnoughReplicasAfterAppend: "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
	FencedLeaderEpoch:            "FENCED_LEADER_EPOCH",
	UnknownLeaderEpoch:           "UNKNOWN_LEADER_EPOCH",
	InvalidUpdateVersion:         "INVALID_UPDATE_VERSION",
	InvalidRequiredAcks:          "INVALID_REQUIRED_ACKS",
	OutOfOrderSequenceNumber:     "OUT_OF_ORDER_SEQUENCE_NUMBER",
	InvalidProducerEpoch:         "INVALID_PRODUCER_EPOCH",
	InvalidTxnState:              "INVALID_TXN_STATE",
	TransactionCoordinatorFenced: "TRANSACTION_COORDINATOR_FENCED",
}

// String returns Kafka's name for the code, e.g. "NOT_ENOUGH_REPLICAS".
func (c ErrorCode) String() string {
	if s, ok := errorCodeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("ERROR_%d", int16(c))
}

// Retriable reports whether a producer retries after this code (the
// producer's RetriableException subclasses).
func (c ErrorCode) Retriable() bool {
	switch c {
	case NotLeaderOrFollower, RequestTimedOut, NetworkException, NotEnoughReplicas,
		NotEnoughReplicasAfterAppend, FencedLeaderEpoch, UnknownLeaderEpoch, CorruptMessage:
		return true
	}
	return false
}
