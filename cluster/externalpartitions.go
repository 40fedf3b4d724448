package cluster

import (
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// extCreatePartitions answers CreatePartitions (v0-3) as Kafka 3.7's
// controller does (ControllerApis.createPartitions,
// ReplicationControlManager.createPartitions): a topic named twice is
// INVALID_REQUEST ("Duplicate topic name.", listed first); each other
// topic grows to its Count, with the replicas its Assignment gives the new
// partitions or placed as a new topic's are, or gets Kafka's error and
// message; ValidateOnly checks and changes nothing. A key's partition is
// its hash modulo the partition count: after this, new records of a key
// may go to another partition than its old ones (the partitioner/ lesson).
func (w *World) extCreatePartitions(x *ExternalRequest, req *kmsg.CreatePartitionsRequest) *kmsg.CreatePartitionsResponse {
	resp := kmsg.NewPtrCreatePartitionsResponse()
	count := map[string]int{}
	for _, t := range req.Topics {
		count[t.Topic]++
	}
	result := func(topic string, code int16, msg string) {
		rt := kmsg.NewCreatePartitionsResponseTopic()
		rt.Topic, rt.ErrorCode = topic, code
		if msg != "" {
			rt.ErrorMessage = &msg
		}
		resp.Topics = append(resp.Topics, rt)
	}
	for _, t := range req.Topics {
		if count[t.Topic] > 1 {
			result(t.Topic, kafkaerr.InvalidRequest, "Duplicate topic name.")
			count[t.Topic] = 0 // once
		}
	}
	for _, t := range req.Topics {
		if count[t.Topic] == 1 {
			code, msg := w.createPartitions(t, req.ValidateOnly, fmt.Sprintf("client %d (%s)", x.Client, x.ClientID))
			result(t.Topic, code, msg)
		}
	}
	return resp
}

// createPartitions checks one topic of a CreatePartitions request as Kafka
// 3.7's ReplicationControlManager.createPartitions does and, unless
// validateOnly, adds its partitions; it returns Kafka's error code and
// message (0 and "" when done).
func (w *World) createPartitions(req kmsg.CreatePartitionsRequestTopic, validateOnly bool, by string) (int16, string) {
	extra, code, msg := w.ctl.CheckCreatePartitions(req)
	if code != 0 {
		return code, msg
	}
	if validateOnly {
		return 0, ""
	}
	if err := w.addAssigned(w.topic(req.Topic), extra, by); err != nil {
		return kafkaerr.InvalidRequest, err.Error()
	}
	return 0, ""
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
	switch code, msg := w.createPartitions(t, true, ""); code {
	case 0:
		return nil
	case kafkaerr.UnknownTopicOrPartition:
		return ErrUnknownTopicOrPartition
	default:
		return &topicError{code, msg}
	}
}
