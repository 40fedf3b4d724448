package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
)

// ErrUnknownTopic means kafka-topics was asked about a topic that does not
// exist (or is internal and --exclude-internal was given).
var ErrUnknownTopic = errors.New("cluster: unknown topic")

// TopicsOptions are the options of kafka-topics --describe and --list.
type TopicsOptions struct {
	// Topic is --topic: one topic, "" for every topic.
	Topic string
	// ExcludeInternal is --exclude-internal: leave __consumer_offsets out
	// (Kafka lists and describes internal topics by default).
	ExcludeInternal bool
	// UnderReplicated, Unavailable, UnderMinISR and AtMinISR are
	// --under-replicated-partitions, --unavailable-partitions,
	// --under-min-isr-partitions and --at-min-isr-partitions: only the
	// partitions that are so, and no topic lines.
	UnderReplicated, Unavailable, UnderMinISR, AtMinISR bool
}

// ListTopics prints what kafka-topics --list prints: the topics' names,
// sorted, one a line, __consumer_offsets among them unless
// o.ExcludeInternal (TopicCommand.getTopics).
func (w *World) ListTopics(o TopicsOptions) string {
	var b strings.Builder
	for _, t := range w.describedTopics(o) {
		b.WriteString(t.Name + "\n")
	}
	return b.String()
}

// DescribeTopics prints what kafka-topics --bootstrap-server ...
// --describe [--topic name] prints, in the layout of Kafka 3.7's
// TopicCommand (TopicDescription and PartitionDescription.printDescription):
// for each topic, sorted by name, a tab-separated topic line (TopicId left
// out when it is the zero UUID; Configs the configs that are not Kafka's
// defaults), then one tab-indented line per partition with its leader
// ("none" when it has none), replicas and ISR, as the controller has them.
// 3.7 prints no Elr or LastKnownElr column (those come with KIP-966's
// ELR in 3.9's TopicCommand). A --topic that does not exist gives the text
// Kafka prints, "Error while executing topic command : Topic 'x' does not
// exist as expected", and [ErrUnknownTopic].
func (w *World) DescribeTopics(o TopicsOptions) (string, error) {
	topics := w.describedTopics(o)
	if o.Topic != "" && len(topics) == 0 {
		return fmt.Sprintf("Error while executing topic command : Topic '%s' does not exist as expected\n", o.Topic),
			fmt.Errorf("%w: %s", ErrUnknownTopic, o.Topic)
	}
	live := map[int32]bool{}
	for _, b := range w.Brokers() {
		live[b.ID] = b.Controller == "unfenced"
	}
	report := o.UnderReplicated || o.Unavailable || o.UnderMinISR || o.AtMinISR
	var b strings.Builder
	for _, t := range topics {
		minISR := w.minInsyncReplicas(t.Name)
		parts := w.TopicPartitions(t.Name)
		if len(parts) == 0 {
			continue
		}
		if !report {
			b.WriteString("Topic: " + t.Name)
			if t.ID != "" && t.ID != zeroTopicID {
				b.WriteString("\tTopicId: " + t.ID)
			}
			fmt.Fprintf(&b, "\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s\n", len(parts), len(parts[0].Replicas), w.topicConfigs(t))
		}
		for _, p := range parts {
			hasLeader := p.Leader >= 0
			show := !report ||
				o.UnderReplicated && len(p.Replicas) > len(p.ISR) ||
				o.Unavailable && (!hasLeader || !live[p.Leader]) ||
				o.UnderMinISR && (!hasLeader || len(p.ISR) < minISR) ||
				o.AtMinISR && len(p.ISR) == minISR
			if show {
				fmt.Fprintf(&b, "\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s\n", t.Name, p.Partition, leaderLabel(p.Leader), commaIDs(p.Replicas), commaIDs(p.ISR))
			}
		}
	}
	return b.String(), nil
}

// zeroTopicID is Uuid.ZERO_UUID as Kafka prints it.
const zeroTopicID = "AAAAAAAAAAAAAAAAAAAAAA"

// describedTopics are the topics kafka-topics talks about, sorted by name.
func (w *World) describedTopics(o TopicsOptions) []Topic {
	var out []Topic
	for _, t := range w.ctl.Topics() {
		if o.Topic != "" && t.Name != o.Topic || o.ExcludeInternal && t.Internal {
			continue
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Topic) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// topicConfigs is the Configs column: the configs whose value is not
// Kafka's default (ConfigEntry.isDefault is false for topic overrides and
// broker settings alike, so the world's [Config.Log] shows on every
// topic). __consumer_offsets carries the three its coordinator creates it
// with (GroupCoordinator.offsetsTopicConfigs) first, in the order Kafka
// prints them; the others follow in alphabetical order, the broker's
// min.insync.replicas and unclean.leader.election.enable last (Kafka's
// order is that of the broker's answer).
func (w *World) topicConfigs(t Topic) string {
	if t.Internal {
		head := []string{"compression.type=producer", "cleanup.policy=compact", "segment.bytes=104857600"}
		return strings.Join(append(head, topicconfig.Column(w.settings(t.Name), "cleanup.policy", "segment.bytes")...), ",")
	}
	return strings.Join(topicconfig.Column(w.settings(t.Name)), ",")
}

func commaIDs(v []int32) string {
	parts := make([]string, len(v))
	for i, id := range v {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}
