package controller

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// MaxPartitions bounds the partitions of all the cluster's topics together
// (the internal ones included): a simulated partition costs memory, and
// its replicas' fetches cost time while they are followed (a quiet
// replica with no follower costs no step anything: the brokers tick a
// replica only when it has something due). Kafka has no such bound; its
// controller refuses a single request of more than 10,000 metadata
// records (KRaft's MAX_RECORDS_PER_USER_OP), the bound taken here for the
// whole cluster. A client's CreateTopics past it is POLICY_VIOLATION, as a
// cluster's create-topic policy would answer.
const MaxPartitions = 10000

// Topic returns the topic named name, nil if none. The caller may change
// its assignment and configs in place (the world's admin actions do).
func (c *Controller) Topic(name string) *metadata.Topic {
	i, ok := slices.BinarySearchFunc(c.topics, name, func(t metadata.Topic, n string) int { return strings.Compare(t.Name, n) })
	if !ok {
		return nil
	}
	return &c.topics[i]
}

// Topics returns the topics, sorted by name. The caller must not modify it.
func (c *Controller) Topics() []metadata.Topic { return c.topics }

// AddTopic adds a topic (its partitions are added with AddPartition).
func (c *Controller) AddTopic(t metadata.Topic) {
	i, _ := slices.BinarySearchFunc(c.topics, t.Name, func(t metadata.Topic, n string) int { return strings.Compare(t.Name, n) })
	c.topics = slices.Insert(c.topics, i, t)
}

// RemoveTopic removes the topic named name and returns it (its partitions
// are removed with RemovePartition).
func (c *Controller) RemoveTopic(name string) (metadata.Topic, bool) {
	i := slices.IndexFunc(c.topics, func(t metadata.Topic) bool { return t.Name == name })
	if i < 0 {
		return metadata.Topic{}, false
	}
	t := c.topics[i]
	c.topics = slices.Delete(c.topics, i, i+1)
	return t, true
}

// Settings returns the configs of topic's partitions: the topic's own
// over the brokers' (topicconfig.Resolve).
func (c *Controller) Settings(topic string) topicconfig.Settings {
	var own topicconfig.Own
	if t := c.Topic(topic); t != nil {
		own = t.Own()
	}
	return topicconfig.Resolve(c.cfg.BrokerSettings, own)
}

// BoundError refuses a topic that would take the cluster past
// MaxPartitions; it is a metadata.ErrInvalidConfig, and its message says
// why (a client's CreateTopics is answered POLICY_VIOLATION with it).
type BoundError struct{ Msg string }

func (e *BoundError) Error() string        { return metadata.ErrInvalidConfig.Error() + ": " + e.Msg }
func (e *BoundError) Is(target error) bool { return target == metadata.ErrInvalidConfig }

// Room refuses a topic of count partitions (replacing the ones it has, if
// it exists) that would take the cluster past MaxPartitions.
func (c *Controller) Room(topic string, count int) error {
	others := 0
	for i := range c.topics {
		if c.topics[i].Name != topic {
			others += len(c.topics[i].Assignment)
		}
	}
	if count > MaxPartitions-others {
		return &BoundError{fmt.Sprintf("topic %s: %d partitions, and the other topics have %d: the simulated cluster holds at most %d partitions", topic, count, others, MaxPartitions)}
	}
	return nil
}

// Assignment checks spec's partition count against MaxPartitions and its
// given assignment, or places its partitions on the brokers on (nil: all
// of them; PlacedOn).
func (c *Controller) Assignment(spec metadata.TopicSpec, on []int32) ([][]int32, error) {
	count := spec.Partitions
	if spec.Assignment != nil {
		count = len(spec.Assignment)
	}
	if err := c.Room(spec.Name, count); err != nil {
		return nil, err
	}
	if spec.Assignment != nil {
		for p, reps := range spec.Assignment {
			if len(reps) == 0 || len(sortedIDs(reps)) != len(reps) {
				return nil, fmt.Errorf("%w: topic %s partition %d: replicas %v", metadata.ErrInvalidConfig, spec.Name, p, reps)
			}
			for _, id := range reps {
				if id < 1 || int(id) > c.cfg.Brokers {
					return nil, fmt.Errorf("%w: topic %s partition %d: no broker %d", metadata.ErrInvalidConfig, spec.Name, p, id)
				}
			}
		}
		return spec.Assignment, nil
	}
	if on == nil {
		on = c.brokerIDs()
	}
	rf := spec.ReplicationFactor
	if rf == 0 {
		rf = min(3, c.cfg.Brokers)
	}
	if spec.Partitions < 1 || rf < 1 || rf > len(on) {
		return nil, fmt.Errorf("%w: topic %s: %d partitions, replication factor %d, %d brokers", metadata.ErrInvalidConfig, spec.Name, spec.Partitions, rf, len(on))
	}
	return PlacedOn(on, 0, spec.Partitions, rf), nil
}

// brokerIDs are the ids of every broker, 1 to N.
func (c *Controller) brokerIDs() []int32 {
	out := make([]int32, c.cfg.Brokers)
	for i := range out {
		out[i] = int32(i + 1)
	}
	return out
}

// Placement is the brokers the controller places a new partition of rf
// replicas on: the unfenced ones, as Kafka 3.7's StripedReplicaPlacer
// does, or every broker (nil) while fewer than rf are unfenced (the
// world's own topics may be made before the brokers register, or while
// they are down).
func (c *Controller) Placement(rf int) []int32 {
	if alive := c.Alive(); len(alive) >= rf {
		return alive
	}
	return nil
}

// PlacedOn places partitions first..count-1 of a topic of replication
// factor rf on brokers: partition p's replicas are rf brokers in a row
// from brokers[p mod n] (on all three: p0 [1,2,3], p1 [2,3,1]...). A
// client's topic and the partitions added to a topic are placed on the
// unfenced brokers alone ([Controller.Placement]), as Kafka 3.7's
// StripedReplicaPlacer places them (from a random one; here from the
// first), so that what is made while a broker is down is not made offline.
func PlacedOn(brokers []int32, first, count, rf int) [][]int32 {
	out := make([][]int32, 0, max(count-first, 0))
	for p := first; p < count; p++ {
		reps := make([]int32, 0, rf)
		for i := range rf {
			reps = append(reps, brokers[(p+i)%len(brokers)])
		}
		out = append(out, reps)
	}
	return out
}

// GrowthPlacement places the partitions a topic of replication factor rf
// grows to, from its partition first to count-1: on the unfenced brokers,
// or every broker while too few are unfenced.
func (c *Controller) GrowthPlacement(first, count, rf int) [][]int32 {
	on := c.Placement(rf)
	if on == nil {
		on = c.brokerIDs()
	}
	return PlacedOn(on, first, count, rf)
}
