package txn

import (
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// The messages of the transaction protocol, as the envelopes of the
// netsim.KindTxnRequest and KindTxnResponse kinds carry them between a
// client (or a partition leader verifying a batch) and a coordinator, and of
// KindTxnMarkers and KindTxnMarkersResponse between a coordinator's broker
// and a leader's. Corr matches an answer to its request. Error codes are
// Kafka's.

// InitProducerID is InitProducerIdRequest with a transactional id.
// ProducerID and Epoch are the producer's current ones (KIP-360, v3+),
// -1 when it has none.
type InitProducerID struct {
	Corr            int64
	TransactionalID string
	TimeoutMs       int32
	ProducerID      int64
	Epoch           int16
}

// InitProducerIDResponse answers it.
type InitProducerIDResponse struct {
	Corr       int64
	Error      int16
	ProducerID int64
	Epoch      int16
}

// AddPartitions is AddPartitionsToTxnRequest: a producer adding the
// partitions it is about to write to its transaction, or (KIP-890) a
// partition's leader asking whether the partition is in the transaction
// (VerifyOnly, v4 from a broker) or adding it (a transaction.version 2
// producer's first batch).
type AddPartitions struct {
	Corr            int64
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Partitions      []kafkalog.TopicPartition
	VerifyOnly      bool
}

// PartitionError is one partition's answer.
type PartitionError struct {
	TP    kafkalog.TopicPartition
	Error int16
}

// AddPartitionsResponse answers it, partition by partition.
type AddPartitionsResponse struct {
	Corr       int64
	Partitions []PartitionError
}

// AddOffsets is AddOffsetsToTxnRequest: the producer is about to commit the
// group's offsets in its transaction (sendOffsetsToTransaction); the
// group's __consumer_offsets partition joins it.
type AddOffsets struct {
	Corr            int64
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Group           string
}

// AddOffsetsResponse answers it.
type AddOffsetsResponse struct {
	Corr  int64
	Error int16
}

// TxnOffsetCommit is TxnOffsetCommitRequest from a simulated producer
// (sendOffsetsToTransaction, once AddOffsetsToTxn was answered): it goes to
// the group's coordinator, not the transaction coordinator, which appends
// the offsets to the group's __consumer_offsets partition as a
// transactional batch of the producer. Generation -1 and an empty member id
// are a commit without the consumer's group metadata (a consumer with
// assigned partitions, as Kafka's TransactionalMessageCopier without
// --use-group-metadata). The append's answer comes back to the producer as
// the leader's produce answer, Corr its correlation id; a refusal before
// the append is a [TxnOffsetCommitResponse].
type TxnOffsetCommit struct {
	Corr            int64
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Group           string
	Generation      int32
	MemberID        string
	Offsets         []CommitOffset
}

// CommitOffset is one partition's offset in a TxnOffsetCommit.
type CommitOffset struct {
	TP     kafkalog.TopicPartition
	Offset int64
}

// TxnOffsetCommitResponse is the group coordinator's refusal of a
// TxnOffsetCommit before its append (NOT_COORDINATOR, ILLEGAL_GENERATION,
// UNKNOWN_TOPIC_OR_PARTITION...), for every partition at once.
type TxnOffsetCommitResponse struct {
	Corr  int64
	Error int16
}

// OffsetsAppendError is the error a group coordinator answers a
// TxnOffsetCommit with when the append of its offsets ended with code, as
// Kafka 3.7's GroupMetadataManager maps it for a commit: too few in-sync
// replicas or a timeout COORDINATOR_NOT_AVAILABLE, a replica no longer
// leading NOT_COORDINATOR, anything else itself (a producer epoch the log
// refused stays INVALID_PRODUCER_EPOCH, which the producer takes as its
// fencing). The coordinator answers a real client with it, and a
// simulated producer, to which the leader answers the append itself,
// reads its answer through it.
func OffsetsAppendError(code replica.ErrorCode) int16 {
	switch code {
	case replica.NotEnoughReplicas, replica.NotEnoughReplicasAfterAppend, replica.RequestTimedOut:
		return kafkaerr.CoordinatorNotAvailable
	case replica.NotLeaderOrFollower:
		return kafkaerr.NotCoordinator
	}
	return int16(code)
}

// EndTxn is EndTxnRequest: commit or abort. TV2 says the client uses
// transaction.version 2 (EndTxn v5+): the coordinator bumps the epoch
// and answers with the producer id and epoch of the next transaction.
type EndTxn struct {
	Corr            int64
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	Commit          bool
	TV2             bool
}

// EndTxnResponse answers it; ProducerID and Epoch are set for a TV2
// client (-1 otherwise).
type EndTxnResponse struct {
	Corr       int64
	Error      int16
	ProducerID int64
	Epoch      int16
}

// Marker is one producer's marker for some partitions of one leader
// (WriteTxnMarkersRequest's WritableTxnMarker).
type Marker struct {
	ProducerID       int64
	Epoch            int16
	Commit           bool
	CoordinatorEpoch int32
	Partitions       []kafkalog.TopicPartition
}

// WriteMarkers is WriteTxnMarkersRequest, from a coordinator's broker to a
// partition leader's.
type WriteMarkers struct {
	Corr    int64
	Markers []Marker
}

// MarkerResult is one producer's answer, partition by partition.
type MarkerResult struct {
	ProducerID int64
	Partitions []PartitionError
}

// WriteMarkersResponse answers it.
type WriteMarkersResponse struct {
	Corr    int64
	Results []MarkerResult
}

// TxnName names each message for the message trace.
func (InitProducerID) TxnName() string          { return "InitProducerId" }
func (InitProducerIDResponse) TxnName() string  { return "InitProducerIdResponse" }
func (AddPartitions) TxnName() string           { return "AddPartitionsToTxn" }
func (AddPartitionsResponse) TxnName() string   { return "AddPartitionsToTxnResponse" }
func (AddOffsets) TxnName() string              { return "AddOffsetsToTxn" }
func (AddOffsetsResponse) TxnName() string      { return "AddOffsetsToTxnResponse" }
func (TxnOffsetCommit) TxnName() string         { return "TxnOffsetCommit" }
func (TxnOffsetCommitResponse) TxnName() string { return "TxnOffsetCommitResponse" }
func (EndTxn) TxnName() string                  { return "EndTxn" }
func (EndTxnResponse) TxnName() string          { return "EndTxnResponse" }
func (WriteMarkers) TxnName() string            { return "WriteTxnMarkers" }
func (WriteMarkersResponse) TxnName() string    { return "WriteTxnMarkersResponse" }

// Error returns the answer's first error (0: none).
func (r AddPartitionsResponse) Error() int16 {
	for _, p := range r.Partitions {
		if p.Error != 0 {
			return p.Error
		}
	}
	return 0
}

// CorrOf is the correlation id msg carries (0 for a message of another
// type).
func CorrOf(msg netsim.TxnMessage) int64 {
	switch m := msg.(type) {
	case InitProducerID:
		return m.Corr
	case InitProducerIDResponse:
		return m.Corr
	case AddPartitions:
		return m.Corr
	case AddPartitionsResponse:
		return m.Corr
	case AddOffsets:
		return m.Corr
	case AddOffsetsResponse:
		return m.Corr
	case TxnOffsetCommit:
		return m.Corr
	case TxnOffsetCommitResponse:
		return m.Corr
	case EndTxn:
		return m.Corr
	case EndTxnResponse:
		return m.Corr
	case WriteMarkers:
		return m.Corr
	case WriteMarkersResponse:
		return m.Corr
	}
	return 0
}
