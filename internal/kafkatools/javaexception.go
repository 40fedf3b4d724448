package kafkatools

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/cluster"
)

// The Java exceptions Kafka's tools print.
const (
	javaExecutionException      = "java.util.concurrent.ExecutionException"
	javaInvalidTopic            = "org.apache.kafka.common.errors.InvalidTopicException"
	javaUnknownTopicOrPartition = "org.apache.kafka.common.errors.UnknownTopicOrPartitionException"
	javaInvalidConfiguration    = "org.apache.kafka.common.errors.InvalidConfigurationException"
	javaInvalidRequest          = "org.apache.kafka.common.errors.InvalidRequestException"
	javaPolicyViolation         = "org.apache.kafka.common.errors.PolicyViolationException"
)

// javaException is the class of the exception Kafka's admin client
// raises for a refusal of the cluster's (Errors' exception of its code):
// a group deletion's, a topic config alteration's
// ([cluster.ConfigRefusal]), an unknown topic.
func javaException(err error) string {
	var r *cluster.ConfigRefusal
	switch {
	case errors.Is(err, cluster.ErrGroupIDNotFound):
		return "org.apache.kafka.common.errors.GroupIdNotFoundException"
	case errors.Is(err, cluster.ErrNonEmptyGroup):
		return "org.apache.kafka.common.errors.GroupNotEmptyException"
	case errors.Is(err, cluster.ErrCoordinatorNotAvailable):
		return "org.apache.kafka.common.errors.CoordinatorNotAvailableException"
	case errors.Is(err, cluster.ErrUnknownTopicOrPartition):
		return javaUnknownTopicOrPartition
	case errors.As(err, &r):
		if class, ok := map[string]string{"INVALID_CONFIG": javaInvalidConfiguration, "INVALID_REQUEST": javaInvalidRequest,
			"POLICY_VIOLATION": javaPolicyViolation, "INVALID_TOPIC_EXCEPTION": javaInvalidTopic}[r.ErrorName()]; ok {
			return class
		}
	}
	return "org.apache.kafka.common.KafkaException"
}

// kafkaMessage is the message of an exception one of Kafka's tools raises
// (an IllegalArgumentException's, an InvalidConfigurationException's), in
// Kafka's words, capitalized and punctuated as Kafka writes them: the
// tool prints it as it is.
type kafkaMessage string

func (m kafkaMessage) Error() string { return string(m) }

// kafkaMessagef formats a kafkaMessage.
func kafkaMessagef(format string, args ...any) error {
	return kafkaMessage(fmt.Sprintf(format, args...))
}
