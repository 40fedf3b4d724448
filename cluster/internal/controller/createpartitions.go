package controller

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// CheckCreatePartitions checks one topic of a CreatePartitions request as
// Kafka 3.7's ReplicationControlManager.createPartitions does and returns
// the replicas of the partitions to add, in order: those the request's
// Assignment gives, or placed on the unfenced brokers as a new topic's
// are; or Kafka's error code and message.
func (c *Controller) CheckCreatePartitions(req kmsg.CreatePartitionsRequestTopic) ([][]int32, int16, string) {
	fail := func(code int16, msg string) ([][]int32, int16, string) { return nil, code, msg }
	t := c.Topic(req.Topic)
	if t == nil {
		return fail(kafkaerr.UnknownTopicOrPartition, "")
	}
	have := len(t.Assignment)
	switch {
	case int(req.Count) == have:
		return fail(kafkaerr.InvalidPartitions, fmt.Sprintf("Topic already has %d partition(s).", have))
	case int(req.Count) < have:
		return fail(kafkaerr.InvalidPartitions, fmt.Sprintf("The topic %s currently has %d partition(s); %d would not be an increase.", req.Topic, have, req.Count))
	}
	if t.Internal {
		// Kafka adds them, and every group whose partition of the offsets
		// topic (the hash of its id modulo the count) changes moves to
		// another coordinator without its committed offsets.
		return fail(kafkaerr.PolicyViolation, fmt.Sprintf("the simulated cluster keeps the %d partitions of %s: with more, groups would move to coordinators that do not have their offsets", have, req.Topic))
	}
	additional := int(req.Count) - have
	if req.Assignment != nil && len(req.Assignment) != additional {
		return fail(kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("Attempted to add %d additional partition(s), but only %d assignment(s) were specified.", additional, len(req.Assignment)))
	}
	if err := c.Room(req.Topic, int(req.Count)); err != nil {
		return fail(kafkaerr.PolicyViolation, err.(*BoundError).Msg)
	}
	rf := len(t.Assignment[0])
	if req.Assignment == nil {
		alive := c.Alive()
		if rf > len(alive) {
			return fail(kafkaerr.InvalidReplicationFactor, fmt.Sprintf("Unable to replicate the partition %d time(s): The target replication factor of %d cannot be reached because only %d broker(s) are registered.", rf, rf, len(alive)))
		}
		return PlacedOn(alive, have, int(req.Count), rf), 0, ""
	}
	var extra [][]int32
	for i, a := range req.Assignment {
		if code, msg := c.manualReplicas(a.Replicas, rf); code != 0 {
			return fail(code, msg)
		}
		if !slices.ContainsFunc(a.Replicas, c.Unfenced) {
			return fail(kafkaerr.InvalidReplicaAssignment, fmt.Sprintf("All brokers specified in the manual partition assignment for partition %d are fenced or in controlled shutdown.", have+i))
		}
		extra = append(extra, slices.Clone(a.Replicas))
	}
	return extra, 0, ""
}

// manualReplicas checks one new partition's replicas as Kafka 3.7's
// ReplicationControlManager.validateManualPartitionAssignment does: not
// empty, brokers that exist, each once, rf of them.
func (c *Controller) manualReplicas(replicas []int32, rf int) (int16, string) {
	if len(replicas) == 0 {
		return kafkaerr.InvalidReplicaAssignment, "The manual partition assignment includes an empty replica list."
	}
	sorted := slices.Sorted(slices.Values(replicas))
	for i, id := range sorted {
		if id < 1 || int(id) > c.cfg.Brokers {
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
