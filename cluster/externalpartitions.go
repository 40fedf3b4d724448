package cluster

import (
	"fmt"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/controller"
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
	t := w.topic(req.Topic)
	if t == nil {
		return kafkaerr.UnknownTopicOrPartition, ""
	}
	have := len(t.Assignment)
	switch {
	case int(req.Count) == have:
		return kafkaerr.InvalidPartitions, fmt.Sprintf("Topic already has %d partition(s).", have)
	case int(req.Count) < have:
		return kafkaerr.InvalidPartitions, fmt.Sprintf("The topic %s currently has %d partition(s); %d would not be an increase.", req.Topic, have, req.Count)
	}
	if t.Internal {
		// Kafka adds them, and every group whose partition of the offsets
		// topic (the hash of its id modulo the count) changes moves to
		// another coordinator without its committed offsets.
		return kafkaerr.PolicyViolation, fmt.Sprintf("the simulated cluster keeps the %d partitions of %s: with more, groups would move to coordinators that do not have their offsets", have, req.Topic)
	}
	additional := int(req.Count) - have
	if req.Assignment != nil && len(req.Assignment) != additional {
		return kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("Attempted to add %d additional partition(s), but only %d assignment(s) were specified.", additional, len(req.Assignment))
	}
	if err := w.ctl.Room(req.Topic, int(req.Count)); err != nil {
		return kafkaerr.PolicyViolation, err.(*controller.BoundError).Msg
	}
	rf := len(t.Assignment[0])
	var extra [][]int32
	if req.Assignment != nil {
		for i, a := range req.Assignment {
			if code, msg := w.manualReplicas(a.Replicas, rf); code != 0 {
				return code, msg
			}
			if !slices.ContainsFunc(a.Replicas, w.ctl.Unfenced) {
				return kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("All brokers specified in the manual partition assignment for partition %d are fenced or in controlled shutdown.", have+i)
			}
			extra = append(extra, slices.Clone(a.Replicas))
		}
	} else {
		alive := w.aliveBrokers()
		if rf > len(alive) {
			return kafkaerr.InvalidReplicationFactor, fmt.Sprintf("Unable to replicate the partition %d time(s): The target replication factor of %d cannot be reached because only %d broker(s) are registered.", rf, rf, len(alive))
		}
		extra = controller.PlacedOn(alive, have, int(req.Count), rf) // on the unfenced brokers (World.placement)
	}
	if validateOnly {
		return 0, ""
	}
	if err := w.addAssigned(t, extra, by); err != nil {
		return kafkaerr.InvalidRequest, err.Error()
	}
	return 0, ""
}

// manualReplicas checks one new partition's replicas as Kafka 3.7's
// ReplicationControlManager.validateManualPartitionAssignment does: not
// empty, brokers that exist, each once, rf of them.
func (w *World) manualReplicas(replicas []int32, rf int) (int16, string) {
	if len(replicas) == 0 {
		return kafkaerr.InvalidReplicaAssignment, "The manual partition assignment includes an empty replica list."
	}
	sorted := slices.Sorted(slices.Values(replicas))
	for i, id := range sorted {
		if id < 1 || int(id) > len(w.brokers) {
			return kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("The manual partition assignment includes broker %d, but no such broker is registered.", id)
		}
		if i > 0 && id == sorted[i-1] {
			return kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("The manual partition assignment includes the broker %d more than once.", id)
		}
	}
	if len(sorted) != rf {
		return kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("The manual partition assignment includes a partition with %d replica(s), but this is not consistent with previous partitions, which have %d replica(s).", len(sorted), rf)
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
