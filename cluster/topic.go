package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/replica"
)

// Topic is a topic: its name and each partition's replica assignment, in
// preference order (the first replica is the preferred leader), its
// configs and id.
type Topic = metadata.Topic

// TopicSpec asks for a topic. Without Assignment, partition p gets
// ReplicationFactor replicas starting at broker (p mod N)+1, as
// kafka-topics --create spreads them (p0 [1,2,3], p1 [2,3,1]...).
type TopicSpec = metadata.TopicSpec

// createTopic creates a topic at the controller and opens its replicas on
// the running brokers.
func (w *World) createTopic(spec TopicSpec) error {
	if spec.Name == "" || w.ctl.Topic(spec.Name) != nil {
		return fmt.Errorf("%w: topic name %q empty or taken", ErrInvalidConfig, spec.Name)
	}
	asg, err := w.ctl.Assignment(spec, nil)
	if err != nil {
		return err
	}
	if spec.Config != nil {
		if err := spec.Config.Validate(); err != nil {
			return err
		}
	}
	if spec.MinInsyncReplicas < 0 {
		return fmt.Errorf("%w: topic %s: min.insync.replicas %d", ErrInvalidConfig, spec.Name, spec.MinInsyncReplicas)
	}
	w.ctl.AddTopic(Topic{Name: spec.Name, Assignment: asg, Config: spec.Config, Internal: metadata.IsInternal(spec.Name), ID: metadata.NewTopicID(w.cfg.Seed, spec.Name),
		MinInsyncReplicas: spec.MinInsyncReplicas, UncleanLeaderElectionEnable: spec.UncleanLeaderElectionEnable, Overrides: slices.Sorted(slices.Values(spec.Overrides))})
	return w.openPartitions(spec.Name, asg, 0)
}

// openPartitions opens the replicas of partitions from.. of a new or grown
// topic and registers them with the controller.
func (w *World) openPartitions(topic string, asg [][]int32, from int) error {
	for p := from; p < len(asg); p++ {
		reps := asg[p]
		tp := partitionKey{Topic: topic, Partition: int32(p)}
		for _, id := range reps {
			if b := w.brokers[id-1]; b.State() == BrokerRunning {
				if err := b.OpenNew(w.env(), tp); err != nil {
					w.internalError(b, err)
				}
			}
		}
		w.ctl.AddPartition(w.env(), tp, reps)
	}
	return nil
}

// topicDefaults are the brokers' topic configs: what a topic that sets
// none of its own has.
func (c Config) topicDefaults() topicconfig.Settings {
	return topicconfig.Settings{Log: c.Log, MinInsyncReplicas: c.MinInsyncReplicas, UncleanLeaderElectionEnable: c.UncleanLeaderElectionEnable,
		Kafka4: c.Rules >= replica.V4}
}

// addPartitions grows topic to count partitions (kafka-topics --alter
// --partitions): existing records stay where they are; new partitions get
// replicas as at creation (partition p starts at broker (p mod N)+1), so
// keys hashed with murmur2 may now map elsewhere. Producers see the
// new count at once (instant metadata); group members are told and their
// leader rebalances at its next poll.
func (w *World) addPartitions(topic string, count int) error {
	t := w.ctl.Topic(topic)
	if t == nil || count <= len(t.Assignment) || t.Internal {
		return fmt.Errorf("%w: add partitions to %q: %d", ErrInvalidConfig, topic, count)
	}
	if err := w.ctl.Room(topic, count); err != nil {
		return err
	}
	return w.addAssigned(t, w.ctl.GrowthPlacement(len(t.Assignment), count, len(t.Assignment[0])), "")
}

// addAssigned adds partitions with the replicas extra gives, in order, to
// topic t, after its last; by, when set, says who asked.
func (w *World) addAssigned(t *Topic, extra [][]int32, by string) error {
	old := len(t.Assignment)
	t.Assignment = append(t.Assignment, extra...)
	if by != "" {
		by = fmt.Sprintf(" (%s, replicas %v)", by, extra)
	}
	w.record(EventController, 0, nil, "topic %s: partitions %d -> %d%s", t.Name, old, len(t.Assignment), by)
	if err := w.openPartitions(t.Name, t.Assignment, old); err != nil {
		return err
	}
	w.refreshGroupMetadata()
	return nil
}
