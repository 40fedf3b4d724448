package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
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

// own is what the topic sets itself, over the brokers' settings.
func (t *Topic) own() topicconfig.Own {
	return topicconfig.Own{Log: t.Config, MinInsyncReplicas: t.MinInsyncReplicas, UncleanLeaderElectionEnable: t.UncleanLeaderElectionEnable, Overrides: t.Overrides}
}

func (w *World) topic(name string) *Topic {
	for i := range w.topics {
		if w.topics[i].Name == name {
			return &w.topics[i]
		}
	}
	return nil
}

// Topics returns the topics, sorted by name. The caller must not modify it.
func (w *World) Topics() []Topic { return w.topics }

// MaxPartitions bounds the partitions of all the world's topics together
// (the internal ones included): a simulated broker's partition costs
// memory and every step's time, and 10,000 of them take seconds to create
// and run slower than the clock. Kafka has no such bound (its controller
// refuses a single request of more than 10,000 metadata records, KRaft's
// MAX_RECORDS_PER_USER_OP); a client's CreateTopics past it is
// POLICY_VIOLATION, as a cluster's create-topic policy would answer.
const MaxPartitions = 1000

// partitionBoundError refuses a topic that would take the world past
// MaxPartitions; it is an ErrInvalidConfig, and msg says why (a client's
// CreateTopics is answered POLICY_VIOLATION with it).
type partitionBoundError struct{ msg string }

func (e *partitionBoundError) Error() string        { return ErrInvalidConfig.Error() + ": " + e.msg }
func (e *partitionBoundError) Is(target error) bool { return target == ErrInvalidConfig }

// partitionRoom refuses a topic of count partitions (replacing the ones
// it has, if it exists) that would take the world past MaxPartitions.
func (w *World) partitionRoom(topic string, count int) error {
	others := 0
	for i := range w.topics {
		if w.topics[i].Name != topic {
			others += len(w.topics[i].Assignment)
		}
	}
	if count > MaxPartitions-others {
		return &partitionBoundError{fmt.Sprintf("topic %s: %d partitions, and the other topics have %d: the simulated cluster holds at most %d partitions", topic, count, others, MaxPartitions)}
	}
	return nil
}

// assignment checks spec's partition count against MaxPartitions and its
// given assignment, or places its partitions on the brokers on (nil: all
// of them; placedOn).
func (w *World) assignment(spec TopicSpec, on []int32) ([][]int32, error) {
	count := spec.Partitions
	if spec.Assignment != nil {
		count = len(spec.Assignment)
	}
	if err := w.partitionRoom(spec.Name, count); err != nil {
		return nil, err
	}
	if spec.Assignment != nil {
		for p, reps := range spec.Assignment {
			if len(reps) == 0 || len(sortedIDs(reps)) != len(reps) {
				return nil, fmt.Errorf("%w: topic %s partition %d: replicas %v", ErrInvalidConfig, spec.Name, p, reps)
			}
			for _, id := range reps {
				if id < 1 || int(id) > len(w.brokers) {
					return nil, fmt.Errorf("%w: topic %s partition %d: no broker %d", ErrInvalidConfig, spec.Name, p, id)
				}
			}
		}
		return spec.Assignment, nil
	}
	if on == nil {
		on = w.brokerIDs()
	}
	rf := spec.ReplicationFactor
	if rf == 0 {
		rf = min(3, len(w.brokers))
	}
	if spec.Partitions < 1 || rf < 1 || rf > len(on) {
		return nil, fmt.Errorf("%w: topic %s: %d partitions, replication factor %d, %d brokers", ErrInvalidConfig, spec.Name, spec.Partitions, rf, len(on))
	}
	return placedOn(on, 0, spec.Partitions, rf), nil
}

// brokerIDs are the ids of every broker, 1 to N.
func (w *World) brokerIDs() []int32 {
	out := make([]int32, len(w.brokers))
	for i := range out {
		out[i] = int32(i + 1)
	}
	return out
}

// placement is the brokers the controller places a new partition of rf
// replicas on: the unfenced ones, as Kafka 3.7's StripedReplicaPlacer
// does, or every broker while fewer than rf are unfenced (the world's own
// topics may be made before the brokers register, or while they are down).
func (w *World) placement(rf int) []int32 {
	if alive := w.aliveBrokers(); len(alive) >= rf {
		return alive
	}
	return nil
}

// placedOn places partitions first..count-1 of a topic of replication
// factor rf on brokers: partition p's replicas are rf brokers in a row
// from brokers[p mod n] (on all three: p0 [1,2,3], p1 [2,3,1]...). A
// client's topic and the partitions added to a topic are placed on the
// unfenced brokers alone ([World.placement]), as Kafka 3.7's
// StripedReplicaPlacer places them (from a random one; here from the
// first), so that what is made while a broker is down is not made offline.
func placedOn(brokers []int32, first, count, rf int) [][]int32 {
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

func (w *World) createTopic(spec TopicSpec) error {
	if spec.Name == "" || w.topic(spec.Name) != nil {
		return fmt.Errorf("%w: topic name %q empty or taken", ErrInvalidConfig, spec.Name)
	}
	asg, err := w.assignment(spec, nil)
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
	t := Topic{Name: spec.Name, Assignment: asg, Config: spec.Config, Internal: isInternalTopic(spec.Name), ID: newTopicID(w.cfg.Seed, spec.Name),
		MinInsyncReplicas: spec.MinInsyncReplicas, UncleanLeaderElectionEnable: spec.UncleanLeaderElectionEnable, Overrides: slices.Sorted(slices.Values(spec.Overrides))}
	w.topics = append(w.topics, t)
	slices.SortFunc(w.topics, func(a, b Topic) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return w.openPartitions(spec.Name, asg, 0)
}

// openPartitions opens the replicas of partitions from.. of a new or grown
// topic and registers them with the controller.
func (w *World) openPartitions(topic string, asg [][]int32, from int) error {
	for p := from; p < len(asg); p++ {
		reps := asg[p]
		tp := partitionKey{Topic: topic, Partition: int32(p)}
		for _, id := range reps {
			if b := w.brokers[id-1]; b.state == BrokerRunning {
				if err := w.openReplica(b, tp, 0, 0, 0, false); err != nil {
					w.internalError(b, err)
				}
			}
		}
		w.addPartition(tp, reps)
	}
	return nil
}

// brokerSettings are the brokers' topic configs: what a topic that sets
// none of its own has.
func (w *World) brokerSettings() topicconfig.Settings {
	return topicconfig.Settings{Log: w.cfg.Log, MinInsyncReplicas: w.cfg.MinInsyncReplicas, UncleanLeaderElectionEnable: w.cfg.UncleanLeaderElectionEnable}
}

// settings returns the configs of topic's partitions: the topic's own
// over the brokers' (topicconfig.Resolve).
func (w *World) settings(topic string) topicconfig.Settings {
	var own topicconfig.Own
	if t := w.topic(topic); t != nil {
		own = t.own()
	}
	return topicconfig.Resolve(w.brokerSettings(), own)
}

// logConfig returns the log configuration of topic's partitions.
func (w *World) logConfig(topic string) kafkalog.Config { return w.settings(topic).Log }

// minInsyncReplicas returns the min.insync.replicas of topic's
// partitions.
func (w *World) minInsyncReplicas(topic string) int { return w.settings(topic).MinInsyncReplicas }

// uncleanLeaderElection returns the unclean.leader.election.enable the
// controller follows for topic's partitions.
func (w *World) uncleanLeaderElection(topic string) bool {
	return w.settings(topic).UncleanLeaderElectionEnable
}

// addPartitions grows topic to count partitions (kafka-topics --alter
// --partitions): existing records stay where they are; new partitions get
// replicas as at creation (partition p starts at broker (p mod N)+1), so
// keys hashed with murmur2 may now map elsewhere. Producers see the
// new count at once (instant metadata); group members are told and their
// leader rebalances at its next poll.
func (w *World) addPartitions(topic string, count int) error {
	t := w.topic(topic)
	if t == nil || count <= len(t.Assignment) || t.Internal {
		return fmt.Errorf("%w: add partitions to %q: %d", ErrInvalidConfig, topic, count)
	}
	if err := w.partitionRoom(topic, count); err != nil {
		return err
	}
	rf := len(t.Assignment[0])
	on := w.placement(rf)
	if on == nil {
		on = w.brokerIDs()
	}
	return w.addAssigned(t, placedOn(on, len(t.Assignment), count, rf), "")
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
