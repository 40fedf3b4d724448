package metadata

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Topic is a topic: its name and each partition's replica assignment, in
// preference order (the first replica is the preferred leader).
type Topic struct {
	Name string
	// Assignment[p] lists partition p's replicas.
	Assignment [][]int32
	// Config is the topic's log configuration (cleanup.policy,
	// retention.ms, segment.bytes...); nil means the world's [Config.Log].
	Config *kafkalog.Config
	// Internal marks __consumer_offsets, which the state shows only
	// through the groups.
	Internal bool
	// ID is the topic id (TopicId), base64 as Kafka prints it.
	ID string
	// MinInsyncReplicas is the topic's min.insync.replicas, which its
	// partitions' acks=all check and high watermark are held to; 0 means
	// the broker's [Config.MinInsyncReplicas].
	MinInsyncReplicas int
	// UncleanLeaderElectionEnable is the topic's
	// unclean.leader.election.enable, which the controller's elections of
	// its partitions follow; nil means the broker's
	// [Config.UncleanLeaderElectionEnable].
	UncleanLeaderElectionEnable *bool
	// Overrides names the topic configs set on the topic itself, sorted
	// (DescribeConfigs reports them as DYNAMIC_TOPIC_CONFIG, even where the
	// value equals the broker's).
	Overrides []string
}

// TopicSpec asks for a topic. Without Assignment, partition p gets
// ReplicationFactor replicas starting at broker (p mod N)+1, as
// kafka-topics --create spreads them (p0 [1,2,3], p1 [2,3,1]...).
type TopicSpec struct {
	Name              string
	Partitions        int
	ReplicationFactor int
	Assignment        [][]int32
	// Config overrides the world's log configuration for this topic.
	Config *kafkalog.Config
	// MinInsyncReplicas, UncleanLeaderElectionEnable and Overrides are
	// the [Topic]'s.
	MinInsyncReplicas           int
	UncleanLeaderElectionEnable *bool
	Overrides                   []string
}

// Own is what the topic sets itself, over the brokers' settings.
func (t *Topic) Own() topicconfig.Own {
	return topicconfig.Own{Log: t.Config, MinInsyncReplicas: t.MinInsyncReplicas, UncleanLeaderElectionEnable: t.UncleanLeaderElectionEnable, Overrides: t.Overrides}
}

// Own is what the topic the spec asks for sets itself (Topic.Own).
func (s *TopicSpec) Own() topicconfig.Own {
	return topicconfig.Own{Log: s.Config, MinInsyncReplicas: s.MinInsyncReplicas, UncleanLeaderElectionEnable: s.UncleanLeaderElectionEnable, Overrides: s.Overrides}
}

// The brokers' defaults for a topic a client creates without saying
// (KafkaConfig, 3.7).
const (
	// DefaultNumPartitions is num.partitions: a CreateTopics that leaves
	// the count to the broker (-1) gets 1.
	DefaultNumPartitions = 1
	// DefaultReplicationFactor is default.replication.factor: 1.
	DefaultReplicationFactor = 1
)

// OffsetsTopic is Kafka's internal topic of committed offsets and group
// metadata.
const OffsetsTopic = "__consumer_offsets"

// TxnStateTopic is Kafka's internal topic of the transaction coordinators'
// state (TransactionLog).
const TxnStateTopic = "__transaction_state"

// IsInternal reports Kafka's Topic.isInternal: the offsets and the
// transaction state topics.
func IsInternal(name string) bool {
	return name == OffsetsTopic || name == TxnStateTopic
}

// TxnStatePartition is the __transaction_state partition of a
// transactional id (TransactionStateManager.partitionFor):
// abs(hash(transactionalID)) mod partitions, as for a group.
func TxnStatePartition(transactionalID string, partitions int) kafkalog.TopicPartition {
	p, _ := group.OffsetsPartition(transactionalID, int32(partitions))
	return kafkalog.TopicPartition{Topic: TxnStateTopic, Partition: p}
}

// CheckTopicName is Kafka 3.7's Topic.validate (the broker's and the
// controller's check of a topic's name), with its messages: 1 to
// 249 of [a-zA-Z0-9._-] (counted as Java counts a String's length, in
// UTF-16 units), not "." or "..".
func CheckTopicName(name string) error {
	why := ""
	switch {
	case name == "":
		why = "the empty string is not allowed"
	case name == "." || name == "..":
		why = "'" + name + "' is not allowed"
	case len(utf16.Encode([]rune(name))) > 249:
		why = fmt.Sprintf("the length of '%s' is longer than the max allowed length 249", name)
	case strings.ContainsFunc(name, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')
	}):
		why = "'" + name + "' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
	default:
		return nil
	}
	return errors.New("Topic name is invalid: " + why)
}

// ErrInvalidConfig means a setting is out of range, or an action names
// something that does not exist (cluster.ErrInvalidConfig is this error).
var ErrInvalidConfig = errors.New("cluster: invalid config")

// ComparePartitions orders partitions by topic, then partition.
func ComparePartitions(a, b kafkalog.TopicPartition) int {
	if a.Topic != b.Topic {
		if a.Topic < b.Topic {
			return -1
		}
		return 1
	}
	return int(a.Partition - b.Partition)
}

// OffsetsPartition is the __consumer_offsets partition of groupID
// (GroupCoordinator.partitionFor): abs(hash(groupID)) mod partitions.
func OffsetsPartition(groupID string, partitions int) kafkalog.TopicPartition {
	p, _ := group.OffsetsPartition(groupID, int32(partitions))
	return kafkalog.TopicPartition{Topic: OffsetsTopic, Partition: p}
}
