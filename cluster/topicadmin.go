package cluster

import (
	"errors"
	"math"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// The checks of Kafka's admin requests the terminal's tools run before
// they act (kafka-topics --create and --alter --partitions): the
// controller's, as a client's CreateTopics and CreatePartitions meet them.

// Broker defaults the external admin requests use (KafkaConfig, 3.7).
const (
	// DefaultNumPartitions is num.partitions: a CreateTopics that leaves
	// the count to the broker (-1) gets 1.
	DefaultNumPartitions = metadata.DefaultNumPartitions
	// DefaultReplicationFactor is default.replication.factor: 1.
	DefaultReplicationFactor = metadata.DefaultReplicationFactor
	// DefaultFetchMaxBytes is fetch.max.bytes: 55 MiB (57671680).
	DefaultFetchMaxBytes = broker.DefaultFetchMaxBytes
)

// CheckTopicName is Kafka 3.7's Topic.validate, with its messages: 1 to
// 249 of [a-zA-Z0-9._-] (counted as Java counts a String's length, in
// UTF-16 units), not "." or "..".
func CheckTopicName(name string) error { return metadata.CheckTopicName(name) }

// ErrTopicExists is the error of a topic creation whose name is taken
// (Kafka's TOPIC_ALREADY_EXISTS).
var ErrTopicExists = errors.New("cluster: TOPIC_ALREADY_EXISTS")

// topicError is a refused topic creation: Kafka's message, and its
// code for errors.Is.
type topicError struct {
	code int16
	msg  string
}

func (e *topicError) Error() string { return e.msg }

func (e *topicError) Is(target error) bool {
	if e.code == kafkaerr.TopicAlreadyExists {
		return target == ErrTopicExists
	}
	return target == ErrInvalidConfig
}

// NewTopicSpec checks a topic to create as Kafka 3.7's controller checks
// a client's CreateTopics (kafka-topics --create sends one): a legal name
// not taken, a partition count and replication factor of at least 1 (-1
// leaves them to num.partitions and default.replication.factor, both 1),
// no more replicas than brokers alive, and topic configs Kafka knows with
// values in range. It returns the TopicSpec an [ActCreateTopic] action
// creates, its assignment chosen; its error's text is Kafka's message,
// and errors.Is tells [ErrTopicExists] from [ErrInvalidConfig].
func (w *World) NewTopicSpec(name string, partitions, replicationFactor int, configs [][2]string) (TopicSpec, error) {
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = name, -1, -1
	if partitions != -1 { // a negative count is as refused as 0
		t.NumPartitions = int32(max(min(partitions, math.MaxInt32), 0))
	}
	if replicationFactor != -1 {
		t.ReplicationFactor = int16(max(min(replicationFactor, math.MaxInt16), 0))
	}
	for _, c := range configs {
		tc := kmsg.NewCreateTopicsRequestTopicConfig()
		tc.Name, tc.Value = c[0], kmsg.StringPtr(c[1])
		t.Configs = append(t.Configs, tc)
	}
	spec, code, msg := w.ctl.CheckCreateTopic(t)
	if code != 0 {
		return TopicSpec{}, &topicError{code, msg}
	}
	return spec, nil
}

// CheckAddPartitions checks growing topic to count partitions as Kafka
// 3.7's controller checks a CreatePartitions request (kafka-topics --alter
// --partitions sends one), the new partitions placed by the controller:
// nil when an [ActAddPartitions] action of that count will be taken, else
// an error whose text is Kafka's message, [ErrUnknownTopicOrPartition]
// for a topic that does not exist, [ErrInvalidConfig] otherwise.
func (w *World) CheckAddPartitions(topic string, count int) error {
	t := kmsg.NewCreatePartitionsRequestTopic()
	t.Topic, t.Count = topic, int32(max(min(count, math.MaxInt32), math.MinInt32))
	switch _, code, msg := w.ctl.CheckCreatePartitions(t); code {
	case 0:
		return nil
	case kafkaerr.UnknownTopicOrPartition:
		return ErrUnknownTopicOrPartition
	default:
		return &topicError{code, msg}
	}
}
