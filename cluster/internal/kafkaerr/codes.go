package kafkaerr

import (
	"strings"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// Kafka's error codes (Errors), as the int16 a response carries.
const (
	UnknownServerError       int16 = -1
	None                     int16 = 0
	OffsetOutOfRange         int16 = 1
	CorruptMessage           int16 = 2
	UnknownTopicOrPartition  int16 = 3
	LeaderNotAvailable       int16 = 5
	NotLeaderOrFollower      int16 = 6
	RequestTimedOut          int16 = 7
	NetworkException         int16 = 13
	MessageTooLarge          int16 = 10
	CoordinatorNotAvailable  int16 = 15
	NotCoordinator           int16 = 16
	InvalidTopicException    int16 = 17
	RecordListTooLarge       int16 = 18
	InvalidRequiredAcks      int16 = 21
	InvalidGroupID           int16 = 24
	InvalidTimestamp         int16 = 32
	UnsupportedVersion       int16 = 35
	TopicAlreadyExists       int16 = 36
	InvalidPartitions        int16 = 37
	InvalidReplicationFactor int16 = 38
	InvalidReplicaAssignment int16 = 39
	InvalidConfig            int16 = 40
	InvalidRequest           int16 = 42
	PolicyViolation          int16 = 44
	KafkaStorageError        int16 = 56
	InvalidRecord            int16 = 87
	UnknownTopicID           int16 = 100
	MismatchedEndpointType   int16 = 114
	UnsupportedEndpointType  int16 = 115
)

// The transaction codes (the replication ones, INVALID_PRODUCER_EPOCH,
// INVALID_TXN_STATE and TRANSACTION_COORDINATOR_FENCED, are
// replica.ErrorCode's).
const (
	CoordinatorLoadInProgress int16 = 14
	NotEnoughReplicas         int16 = 19
	InvalidProducerEpoch      int16 = 47
	InvalidTxnState           int16 = 48
	InvalidProducerIDMapping  int16 = 49
	InvalidTransactionTimeout int16 = 50
	ConcurrentTransactions    int16 = 51
	CoordinatorFenced         int16 = 52
	OperationNotAttempted     int16 = 55
	UnknownProducerID         int16 = 59
	UnstableOffsetCommit      int16 = 88
	ProducerFenced            int16 = 90
	TransactionalIDNotFound   int16 = 105
	TransactionAbortable      int16 = 120
)

var names = map[int16]string{
	UnknownServerError:        "UNKNOWN_SERVER_ERROR",
	CorruptMessage:            "CORRUPT_MESSAGE",
	UnknownTopicOrPartition:   "UNKNOWN_TOPIC_OR_PARTITION",
	LeaderNotAvailable:        "LEADER_NOT_AVAILABLE",
	CoordinatorNotAvailable:   "COORDINATOR_NOT_AVAILABLE",
	NotCoordinator:            "NOT_COORDINATOR",
	InvalidTopicException:     "INVALID_TOPIC_EXCEPTION",
	InvalidGroupID:            "INVALID_GROUP_ID",
	InvalidTimestamp:          "INVALID_TIMESTAMP",
	UnsupportedVersion:        "UNSUPPORTED_VERSION",
	TopicAlreadyExists:        "TOPIC_ALREADY_EXISTS",
	InvalidPartitions:         "INVALID_PARTITIONS",
	InvalidReplicationFactor:  "INVALID_REPLICATION_FACTOR",
	InvalidReplicaAssignment:  "INVALID_REPLICA_ASSIGNMENT",
	InvalidConfig:             "INVALID_CONFIG",
	InvalidRequest:            "INVALID_REQUEST",
	PolicyViolation:           "POLICY_VIOLATION",
	InvalidRecord:             "INVALID_RECORD",
	UnknownTopicID:            "UNKNOWN_TOPIC_ID",
	CoordinatorLoadInProgress: "COORDINATOR_LOAD_IN_PROGRESS",
	InvalidProducerIDMapping:  "INVALID_PRODUCER_ID_MAPPING",
	InvalidTransactionTimeout: "INVALID_TRANSACTION_TIMEOUT",
	ConcurrentTransactions:    "CONCURRENT_TRANSACTIONS",
	OperationNotAttempted:     "OPERATION_NOT_ATTEMPTED",
	UnknownProducerID:         "UNKNOWN_PRODUCER_ID",
	UnstableOffsetCommit:      "UNSTABLE_OFFSET_COMMIT",
	ProducerFenced:            "PRODUCER_FENCED",
	TransactionalIDNotFound:   "TRANSACTIONAL_ID_NOT_FOUND",
	TransactionAbortable:      "TRANSACTION_ABORTABLE",
	RequestTimedOut:           "REQUEST_TIMED_OUT",
	NetworkException:          "NETWORK_EXCEPTION",
	KafkaStorageError:         "KAFKA_STORAGE_ERROR",
	MismatchedEndpointType:    "MISMATCHED_ENDPOINT_TYPE",
	UnsupportedEndpointType:   "UNSUPPORTED_ENDPOINT_TYPE",
}

// Name is the code's name in Kafka's Errors (INVALID_CONFIG...): the
// codes above, the replication codes as replica.ErrorCode names them and
// the group coordinator's as group.ErrorCode does; ERROR_n for a code none
// of them knows.
func Name(code int16) string {
	if n, ok := names[code]; ok {
		return n
	}
	n := replica.ErrorCode(code).String()
	if g := group.ErrorCode(code).String(); strings.HasPrefix(n, "ERROR_") && !strings.HasPrefix(g, "UNKNOWN_SERVER_ERROR(") {
		return g
	}
	return n
}
