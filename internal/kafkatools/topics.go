package kafkatools

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// Topics is kafka-topics.sh, as Kafka 3.7's TopicCommand runs it with
// --bootstrap-server (which it takes and ignores): --describe and --list
// ([DescribeTopics], [ListTopics]), --create, --alter --partitions and
// --delete, each an action on the world, checked as the controller checks
// a client's request.
func Topics(s Session, args []string, out io.Writer) error {
	fl, pos := Flags(args)
	if len(pos) > 0 {
		return ErrUsage
	}
	_, list := fl["list"]
	_, describe := fl["describe"]
	if _, del := fl["delete"]; del {
		if list || describe || fl["topic"] == "" {
			return fmt.Errorf("%w: --delete --topic T", ErrUsage)
		}
		return deleteTopic(s, fl["topic"], out)
	}
	if _, create := fl["create"]; create {
		if list || describe || fl["topic"] == "" {
			return fmt.Errorf("%w: --create --topic T [--partitions N] [--replication-factor R] [--config K=V]... [--if-not-exists]", ErrUsage)
		}
		return createTopic(s, args, fl, out)
	}
	if _, alter := fl["alter"]; alter {
		if list || describe || fl["topic"] == "" || fl["partitions"] == "" {
			return fmt.Errorf("%w: --alter --topic T --partitions N [--if-exists]", ErrUsage)
		}
		return alterTopic(s, fl, out)
	}
	if list == describe {
		return fmt.Errorf("%w: exactly one of --list, --describe", ErrUsage)
	}
	has := func(k string) bool { _, ok := fl[k]; return ok }
	o := TopicsOptions{Topic: fl["topic"], ExcludeInternal: has("exclude-internal"),
		UnderReplicated: has("under-replicated-partitions"), Unavailable: has("unavailable-partitions"),
		UnderMinISR: has("under-min-isr-partitions"), AtMinISR: has("at-min-isr-partitions")}
	return s.Look(func(w *cluster.World) error {
		if list {
			_, err := io.WriteString(out, ListTopics(w, o))
			return err
		}
		text, err := DescribeTopics(w, o)
		io.WriteString(out, text)
		if err != nil {
			return Printed{err}
		}
		return nil
	})
}

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
func ListTopics(w *cluster.World, o TopicsOptions) string {
	var b strings.Builder
	for _, t := range describedTopics(w, o) {
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
// ("none" when it has none), replicas and ISR, as the controller has them
// (the ISR in the replicas' order, as a partition record lists the
// members it was created with; Kafka appends a member that rejoins, which
// this world does not track). Under rules with eligible leader replicas
// (v4) the line ends with Kafka 4.1's Elr and LastKnownElr columns, which
// its TopicCommand reads from DescribeTopicPartitions (KIP-966); 3.7 prints
// neither. A --topic that does not exist gives the text
// Kafka prints, "Error while executing topic command : Topic 'x' does not
// exist as expected", and [ErrUnknownTopic].
func DescribeTopics(w *cluster.World, o TopicsOptions) (string, error) {
	topics := describedTopics(w, o)
	if o.Topic != "" && len(topics) == 0 {
		return fmt.Sprintf("Error while executing topic command : Topic '%s' does not exist as expected\n", o.Topic),
			fmt.Errorf("%w: %s", ErrUnknownTopic, o.Topic)
	}
	live := map[int32]bool{}
	for _, b := range w.Brokers() {
		live[b.ID] = b.Controller == "unfenced"
	}
	report := o.UnderReplicated || o.Unavailable || o.UnderMinISR || o.AtMinISR
	elr := w.Config().Rules.EligibleLeaderReplicas()
	var b strings.Builder
	for _, t := range topics {
		settings, _ := w.TopicSettings(t.Name)
		minISR := settings.MinInsyncReplicas
		parts := w.TopicPartitions(t.Name)
		if len(parts) == 0 {
			continue
		}
		if !report {
			b.WriteString("Topic: " + t.Name)
			if t.ID != "" && t.ID != zeroTopicID {
				b.WriteString("\tTopicId: " + t.ID)
			}
			fmt.Fprintf(&b, "\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s\n", len(parts), len(parts[0].Replicas), configsColumn(w, t))
		}
		for _, p := range parts {
			hasLeader := p.Leader >= 0
			show := !report ||
				o.UnderReplicated && len(p.Replicas) > len(p.ISR) ||
				o.Unavailable && (!hasLeader || !live[p.Leader]) ||
				o.UnderMinISR && (!hasLeader || len(p.ISR) < minISR) ||
				o.AtMinISR && len(p.ISR) == minISR
			if show {
				fmt.Fprintf(&b, "\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s", t.Name, p.Partition, LeaderLabel(p.Leader), CommaIDs(p.Replicas), CommaIDs(InReplicaOrder(p.ISR, p.Replicas)))
				if elr {
					fmt.Fprintf(&b, "\tElr: %s\tLastKnownElr: %s", CommaIDs(p.ELR), CommaIDs(p.LastKnownELR))
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String(), nil
}

// zeroTopicID is Uuid.ZERO_UUID as Kafka prints it.
const zeroTopicID = "AAAAAAAAAAAAAAAAAAAAAA"

// describedTopics are the topics kafka-topics talks about, sorted by name.
func describedTopics(w *cluster.World, o TopicsOptions) []cluster.Topic {
	var out []cluster.Topic
	for _, t := range w.Topics() {
		if o.Topic != "" && t.Name != o.Topic || o.ExcludeInternal && t.Internal {
			continue
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b cluster.Topic) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// configsColumn is the Configs column: the configs whose value is not
// Kafka's default ([cluster.World.NonDefaultTopicConfigs]).
// __consumer_offsets carries the two its coordinator creates it with
// (GroupCoordinator.groupMetadataTopicConfigs) first, in the order Kafka
// prints them, then the others, its segment.bytes among them: the same
// values kafka-configs describes.
func configsColumn(w *cluster.World, t cluster.Topic) string {
	if t.Internal {
		head := []string{"compression.type=producer", "cleanup.policy=compact"}
		return strings.Join(append(head, w.NonDefaultTopicConfigs(t.Name, "compression.type", "cleanup.policy")...), ",")
	}
	return strings.Join(w.NonDefaultTopicConfigs(t.Name), ",")
}

// LeaderLabel is a partition's leader as kafka-topics prints it: "none"
// for none.
func LeaderLabel(id int32) string {
	if id < 0 {
		return "none"
	}
	return fmt.Sprint(id)
}

// InReplicaOrder returns the members of set in the order of replicas.
func InReplicaOrder(set, replicas []int32) []int32 {
	out := make([]int32, 0, len(set))
	for _, id := range replicas {
		if slices.Contains(set, id) {
			out = append(out, id)
		}
	}
	return out
}

// CommaIDs prints broker ids separated by commas.
func CommaIDs(v []int32) string {
	parts := make([]string, len(v))
	for i, id := range v {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}

// createTopic is kafka-topics --create --topic T [--partitions N]
// [--replication-factor R] [--config K=V]... [--if-not-exists], as Kafka
// 3.7's TopicCommand.createTopic: it refuses a replication factor outside
// 1..32767 and a partition count under 1 itself, leaves either it was not
// given to the brokers (num.partitions, default.replication.factor), and
// asks the controller, which checks the rest as it checks a client's
// CreateTopics ([cluster.World.NewTopicSpec]); it prints "Created topic
// T." and the events, or Kafka's "Error while executing topic command :
// ..." (nothing for a topic that exists with --if-not-exists).
func createTopic(s Session, args []string, fl map[string]string, out io.Writer) error {
	name := fl["topic"]
	partitions, partitionsSet, err := intFlag(fl, "partitions")
	if err != nil {
		return err
	}
	rf, rfSet, err := intFlag(fl, "replication-factor")
	if err != nil {
		return err
	}
	var configs [][2]string
	for _, v := range Repeated(args, "config") {
		k, val, found := strings.Cut(v, "=")
		if !found || k == "" {
			return fmt.Errorf("%w: --config takes NAME=VALUE, not %q", ErrUsage, v)
		}
		configs = append(configs, [2]string{k, val})
	}
	kafkaErr := func(msg string) error { return topicCommandError(out, msg, errors.New(msg)) }
	switch {
	case rfSet && (rf < 1 || rf > math.MaxInt16):
		return kafkaErr(fmt.Sprintf("The replication factor must be between 1 and %d inclusive", math.MaxInt16))
	case partitionsSet && partitions < 1:
		return kafkaErr("The partitions must be greater than 0")
	}
	_, ifNotExists := fl["if-not-exists"]
	refused, err := s.Act(out, func(w *cluster.World) (cluster.Action, error) {
		spec, err := w.NewTopicSpec(name, partitions, rf, configs)
		return cluster.Action{Kind: cluster.ActCreateTopic, Topic: spec}, err
	}, fmt.Sprintf("Created topic %s.\n", name))
	switch {
	case err != nil:
		return err
	case refused == nil, ifNotExists && errors.Is(refused, cluster.ErrTopicExists):
		return nil
	}
	return kafkaErr(refused.Error())
}

// alterTopic is kafka-topics --alter --topic T --partitions N
// [--if-exists], as Kafka 3.7's TopicCommand.alterTopic: an unknown topic
// is "Topic 'T' does not exist as expected" (nothing with --if-exists);
// the controller checks the count as it checks a client's
// CreatePartitions ([cluster.World.CheckAddPartitions]) and places the new
// partitions; it prints the events, or Kafka's "Error while executing
// topic command : ...". A key's partition is its hash modulo the count:
// new records of a key may go elsewhere after this.
func alterTopic(s Session, fl map[string]string, out io.Writer) error {
	name := fl["topic"]
	n, _, err := intFlag(fl, "partitions")
	if err != nil {
		return err
	}
	_, ifExists := fl["if-exists"]
	refused, err := s.Act(out, func(w *cluster.World) (cluster.Action, error) {
		return cluster.Action{Kind: cluster.ActAddPartitions, Name: name, N: n}, w.CheckAddPartitions(name, n)
	}, "")
	switch {
	case err != nil:
		return err
	case refused == nil, ifExists && errors.Is(refused, cluster.ErrUnknownTopicOrPartition):
		return nil
	}
	msg := refused.Error()
	if errors.Is(refused, cluster.ErrUnknownTopicOrPartition) {
		msg = fmt.Sprintf("Topic '%s' does not exist as expected", name)
	}
	return topicCommandError(out, msg, refused)
}

// deleteTopic is kafka-topics --delete --topic name
// ([cluster.World.DeleteTopic]): TopicCommand.deleteTopic first checks that
// the topic exists (ensureTopicExists), then asks the controller to delete
// it, and prints nothing more; the session prints the events it caused.
func deleteTopic(s Session, name string, out io.Writer) error {
	_, err := s.Act(out, func(*cluster.World) (cluster.Action, error) {
		return cluster.Action{Kind: cluster.ActDeleteTopic, Name: name}, nil
	}, "")
	if errors.Is(err, cluster.ErrUnknownTopicOrPartition) {
		return topicCommandError(out, fmt.Sprintf("Topic '%s' does not exist as expected", name), err)
	}
	return err
}

// topicCommandError prints msg as TopicCommand prints a failure, and
// returns err as printed.
func topicCommandError(out io.Writer, msg string, err error) error {
	fmt.Fprintf(out, "Error while executing topic command : %s\n", msg)
	return Printed{err}
}
