// Package observedtools runs Kafka's read-only tools (kafka-topics,
// kafka-consumer-groups, kafka-configs, kafka-metadata-quorum,
// kafka-log-dirs) on what an observer of a real cluster saw (package
// observe), in the tools' own layouts, and refuses every command that would
// change the cluster. It lives apart from kafkatools, whose tools run on
// the simulated cluster, so that the browser's build of the page does not
// link the observer's network client.
package observedtools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/observe"
)

// ErrReadOnly refuses, in the terminal of an observed cluster, a command
// that would change the cluster: it is never sent.
var ErrReadOnly = errors.New("read-only")

// Tools lists Kafka's tools the terminal of an observed cluster
// (kafkalive observe) offers: their read-only commands, answered from the
// observer's latest sample.
func Tools() []kafkatools.Tool {
	return []kafkatools.Tool{
		{Name: "kafka-configs", Usage: "kafka-configs --describe --entity-type topics [--entity-name T] [--all]   (--topic T for --entity-type topics --entity-name T)", Help: "a topic's configs with their sources and synonyms, as the cluster's DescribeConfigs answered them"},
		{Name: "kafka-consumer-groups", Usage: "kafka-consumer-groups --list | --describe --group G [--members [--verbose] | --state]", Help: "the groups, their members, committed offsets and lag"},
		{Name: "kafka-log-dirs", Usage: "kafka-log-dirs --describe [--topic-list T1,T2] [--broker-list 1,2]", Help: "each broker's log dir: every replica's size and offset lag (DescribeLogDirs), as JSON"},
		{Name: "kafka-metadata-quorum", Usage: "kafka-metadata-quorum describe --status | --replication", Help: "the metadata quorum: its leader, epoch, high watermark, voters and observers"},
		{Name: "kafka-topics", Usage: "kafka-topics --describe [--topic T] [--exclude-internal] [--under-replicated-partitions] [--unavailable-partitions] | --list [--exclude-internal]", Help: "the topics with each partition's leader, replicas and ISR"},
	}
}

// writeVerbs are the flags by which Kafka's tools change a cluster.
var writeVerbs = []string{"create", "alter", "delete", "delete-offsets", "reset-offsets", "add-config", "delete-config", "execute",
	"add-controller", "remove-controller"}

// Run runs one of [Tools] (args[0], with or without .sh)
// on s, what an observer last saw, printing to out. A command that would
// change the cluster is refused with [ErrReadOnly] and nothing is sent;
// a mistyped one is [kafkatools.ErrUsage]; an unknown topic or group is printed as
// Kafka's tools print it.
func Run(s *observe.Sample, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: a tool's name", kafkatools.ErrUsage)
	}
	name := strings.TrimSuffix(args[0], ".sh")
	if !slices.ContainsFunc(Tools(), func(t kafkatools.Tool) bool { return t.Name == name }) {
		return fmt.Errorf("%w: %s is not a tool of an observed cluster (%s)", kafkatools.ErrUsage, args[0], strings.Join(names(), ", "))
	}
	fl, _ := kafkatools.Flags(args[1:])
	for _, v := range writeVerbs {
		if _, ok := fl[v]; ok {
			return fmt.Errorf("%w: %s --%s would change the cluster; an observer only looks, and sent nothing", ErrReadOnly, name, v)
		}
	}
	if !s.TopicsListed {
		return fmt.Errorf("the cluster did not answer the last poll: %s", strings.Join(s.Unanswered, "; "))
	}
	switch name {
	case "kafka-topics":
		return observedTopics(s, fl, out)
	case "kafka-consumer-groups":
		return observedGroups(s, fl, out)
	case "kafka-configs":
		return observedConfigs(s, args[1:], fl, out)
	case "kafka-metadata-quorum":
		return observedQuorum(s, args[1:], fl, out)
	default:
		return observedLogDirs(s, args[1:], fl, out)
	}
}

func names() []string {
	var out []string
	for _, t := range Tools() {
		out = append(out, t.Name)
	}
	return out
}

// observedTopics is kafka-topics --list or --describe, in Kafka 3.7's
// TopicCommand layout (as kafkatools.DescribeTopics prints the simulated cluster's):
// a topic's line with the configs whose source is not Kafka's default,
// then a line a partition.
func observedTopics(s *observe.Sample, fl map[string]string, out io.Writer) error {
	_, list := fl["list"]
	_, describe := fl["describe"]
	_, excludeInternal := fl["exclude-internal"]
	if list == describe {
		return fmt.Errorf("%w: --list or --describe", kafkatools.ErrUsage)
	}
	topic, named := fl["topic"]
	var topics []*observe.Topic
	for _, t := range s.Topics {
		if named && t.Name != topic || excludeInternal && t.Internal {
			continue
		}
		topics = append(topics, t)
	}
	if named && len(topics) == 0 {
		fmt.Fprintf(out, "Error while executing topic command : Topic '%s' does not exist as expected\n", topic)
		return kafkatools.Printed{Err: fmt.Errorf("%w: %s", kafkatools.ErrUnknownTopic, topic)}
	}
	if list {
		for _, t := range topics {
			fmt.Fprintln(out, t.Name)
		}
		return nil
	}
	_, under := fl["under-replicated-partitions"]
	_, unavailable := fl["unavailable-partitions"]
	up := map[int32]bool{}
	for _, b := range s.Brokers {
		up[b.ID] = b.State == observe.BrokerUp
	}
	for _, t := range topics {
		parts := partitionsOf(s, t.Name)
		if len(parts) == 0 {
			continue
		}
		if !under && !unavailable {
			fmt.Fprintf(out, "Topic: %s\tTopicId: %s\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s\n",
				t.Name, t.ID, len(parts), len(parts[0].Replicas), nonDefaultConfigs(t))
		}
		for _, p := range parts {
			show := !under && !unavailable || under && len(p.ISR) < len(p.Replicas) || unavailable && (p.Leader < 0 || !up[p.Leader])
			if show {
				fmt.Fprintf(out, "\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s", t.Name, p.Partition, kafkatools.LeaderLabel(p.Leader), kafkatools.CommaIDs(p.Replicas), kafkatools.CommaIDs(kafkatools.InReplicaOrder(p.ISR, p.Replicas)))
				if s.ELRListed {
					// Kafka 4.1's TopicCommand, which reads the partitions
					// from DescribeTopicPartitions (KIP-966)
					fmt.Fprintf(out, "\tElr: %s\tLastKnownElr: %s", kafkatools.CommaIDs(p.ELR), kafkatools.CommaIDs(p.LastKnownELR))
				}
				fmt.Fprintln(out)
			}
		}
	}
	return nil
}

// partitionsOf are s's partitions of topic, in order.
func partitionsOf(s *observe.Sample, topic string) []*observe.Partition {
	var out []*observe.Partition
	for _, p := range s.Partitions {
		if p.Topic == topic {
			out = append(out, p)
		}
	}
	return out
}

// nonDefaultConfigs is kafka-topics' Configs column: the configs whose
// source is not Kafka's default (TopicCommand filters out isDefault), "-"
// where the configs were not observed.
func nonDefaultConfigs(t *observe.Topic) string {
	if t.Configs == nil {
		return "-"
	}
	var kv []string
	for _, c := range t.Configs {
		if c.Source != "DEFAULT_CONFIG" {
			kv = append(kv, c.Name+"="+c.Value)
		}
	}
	return strings.Join(kv, ",")
}

// observedGroups is kafka-consumer-groups --list or --describe, laid out
// by [kafkatools.DescribeGroup].
func observedGroups(s *observe.Sample, fl map[string]string, out io.Writer) error {
	_, list := fl["list"]
	_, describe := fl["describe"]
	if list == describe {
		return fmt.Errorf("%w: --list or --describe --group G", kafkatools.ErrUsage)
	}
	if list {
		for _, g := range s.Groups {
			fmt.Fprintln(out, g.Name)
		}
		return nil
	}
	name, ok := fl["group"]
	if !ok || name == "" {
		return fmt.Errorf("%w: --describe --group G", kafkatools.ErrUsage)
	}
	mode := kafkatools.DescribeOffsets
	_, members := fl["members"]
	_, verbose := fl["verbose"]
	_, state := fl["state"]
	switch {
	case members && state:
		return fmt.Errorf("%w: --members or --state, not both", kafkatools.ErrUsage)
	case members && verbose:
		mode = kafkatools.DescribeMembersVerbose
	case members:
		mode = kafkatools.DescribeMembers
	case state:
		mode = kafkatools.DescribeState
	}
	_, err := io.WriteString(out, kafkatools.DescribeGroup(groupInfos(s), name, mode, kafkatools.Layout37))
	return err
}

// groupInfos are s's groups as [kafkatools.DescribeGroup] takes them. What an
// observer is not told stays unknown: a generation (none is answered),
// each member's fetch position (its assignment is shown instead).
func groupInfos(s *observe.Sample) []cluster.GroupInfo {
	out := make([]cluster.GroupInfo, 0, len(s.Groups))
	for _, g := range s.Groups {
		gi := cluster.GroupInfo{Name: g.Name, State: g.State, Generation: -1, Protocol: g.ProtocolType, Assignor: g.Protocol, Coordinator: g.Coordinator}
		for _, m := range g.Members {
			mi := cluster.MemberInfo{ID: m.ID, ClientID: m.ClientID, InstanceID: m.InstanceID, Host: m.Host}
			for _, tp := range m.Assignment {
				mi.Assignment = append(mi.Assignment, cluster.PartitionRef{Topic: tp.Topic, Partition: tp.Partition})
			}
			mi.Partitions = mi.Assignment
			gi.Members = append(gi.Members, mi)
		}
		for _, o := range g.Offsets {
			gi.Offsets = append(gi.Offsets, cluster.OffsetInfo{Topic: o.Topic, Partition: o.Partition, Committed: o.Committed,
				LogEndOffset: o.LogEndOffset, Lag: o.Lag, Member: o.Member})
		}
		out = append(out, gi)
	}
	return out
}

// observedConfigs is kafka-configs --describe for topics, in the layout of
// the simulated cluster's (kafkatools.Configs): "Dynamic configs for topic T are:"
// and the configs the topic sets itself, or every config with --all.
func observedConfigs(s *observe.Sample, args []string, fl map[string]string, out io.Writer) error {
	if _, ok := fl["describe"]; !ok {
		return fmt.Errorf("%w: --describe --entity-type topics [--entity-name T] [--all]", kafkatools.ErrUsage)
	}
	name, named := lastValue(args, "entity-name")
	if t, ok := fl["topic"]; ok {
		name, named = t, true
	} else if et, _ := lastValue(args, "entity-type"); et != "topics" {
		return fmt.Errorf("%w: --entity-type topics (an observer describes topics' configs)", kafkatools.ErrUsage)
	}
	_, all := fl["all"]
	for _, t := range s.Topics {
		if named && t.Name != name {
			continue
		}
		if all {
			fmt.Fprintf(out, "All configs for topic %s are:\n", t.Name)
		} else {
			fmt.Fprintf(out, "Dynamic configs for topic %s are:\n", t.Name)
		}
		for _, c := range t.Configs {
			if all || c.Source == dynamicTopicConfig {
				fmt.Fprintf(out, "  %s=%s sensitive=%t synonyms={%s}\n", c.Name, c.Value, c.Sensitive, synonymsString(c.Synonyms))
			}
		}
		if t.Configs == nil {
			fmt.Fprintln(out, "  (not observed: the cluster did not answer DescribeConfigs in the last poll)")
		}
		if named {
			return nil
		}
	}
	if named {
		fmt.Fprintf(out, "Error while executing config command with args '%s'\norg.apache.kafka.common.errors.UnknownTopicOrPartitionException: The topic '%s' does not exist.\n", strings.Join(args, " "), name)
		return kafkatools.Printed{Err: fmt.Errorf("%w: %s", kafkatools.ErrUnknownTopic, name)}
	}
	return nil
}

// observedQuorum is kafka-metadata-quorum --describe --status, as
// kafkatools.MetadataQuorum prints it with the cluster's own id, or --replication,
// as Kafka 3.7's MetadataQuorumCommand.handleDescribeReplication does
// (ToolsUtils.prettyPrintTable: each cell padded to its column's widest
// and followed by a tab; the leader first, then the other voters, then the
// observers).
//
// describe is Kafka's sub-command (MetadataQuorumCommand's syntax);
// --describe, as this tool first took it, is read the same way.
func observedQuorum(s *observe.Sample, args []string, fl map[string]string, out io.Writer) error {
	_, pos := kafkatools.Flags(args)
	_, describe := fl["describe"]
	describe = describe || slices.Equal(pos, []string{"describe"})
	_, status := fl["status"]
	_, replication := fl["replication"]
	if !describe || status == replication {
		return fmt.Errorf("%w: describe --status or describe --replication", kafkatools.ErrUsage)
	}
	q := s.Quorum
	if q == nil {
		fmt.Fprintln(out, "The metadata quorum was not observed: the cluster did not answer DescribeQuorum in the last poll.")
		return kafkatools.Printed{Err: errors.New("quorum not observed")}
	}
	d := cluster.QuorumDescription{LeaderID: q.LeaderID, LeaderEpoch: q.LeaderEpoch, HighWatermark: q.HighWatermark,
		Voters: quorumReplicas(q.Voters), Observers: quorumReplicas(q.Observers)}
	if replication {
		text, err := kafkatools.QuorumReplication(d, true, false, s.At.UnixMilli())
		if err == nil {
			_, err = io.WriteString(out, text)
		}
		return err
	}
	st := cluster.QuorumStatus{LeaderID: q.LeaderID, LeaderEpoch: q.LeaderEpoch, HighWatermark: q.HighWatermark}
	var leader cluster.QuorumReplica
	for _, v := range d.Voters {
		if v.ID == d.LeaderID {
			leader = v
		}
	}
	for _, v := range d.Voters {
		st.Voters = append(st.Voters, v.ID)
		st.MaxFollowerLag = max(st.MaxFollowerLag, leader.LogEndOffset-v.LogEndOffset)
		if v.LastCaughtUpMs >= 0 {
			st.MaxFollowerLagTimeMs = max(st.MaxFollowerLagTimeMs, leader.LastCaughtUpMs-v.LastCaughtUpMs)
		}
	}
	st.Observers = []int32{}
	for _, o := range d.Observers {
		st.Observers = append(st.Observers, o.ID)
	}
	_, err := io.WriteString(out, kafkatools.QuorumStatusText(s.ClusterID, st, true))
	return err
}

// quorumReplicas are the observed replicas of the metadata log as the
// tools read a quorum (NotObserved is their -1, unknown).
func quorumReplicas(rs []observe.QuorumReplica) []cluster.QuorumReplica {
	out := make([]cluster.QuorumReplica, len(rs))
	for i, r := range rs {
		out[i] = cluster.QuorumReplica{ID: r.ID, LogEndOffset: r.LogEndOffset, LastFetchMs: r.LastFetchTimestamp, LastCaughtUpMs: r.LastCaughtUpTimestamp}
	}
	return out
}

// logDirsJSON is kafka-log-dirs --describe's JSON (Kafka 3.7's
// LogDirsCommand.formatAsJson).
type logDirsJSON struct {
	Version int              `json:"version"`
	Brokers []brokerDirsJSON `json:"brokers"`
}

type brokerDirsJSON struct {
	Broker  int32         `json:"broker"`
	LogDirs []logDirJSONs `json:"logDirs"`
}

type logDirJSONs struct {
	LogDir     string          `json:"logDir"`
	Error      *string         `json:"error"`
	Partitions []partitionJSON `json:"partitions"`
}

type partitionJSON struct {
	Partition string `json:"partition"`
	Size      int64  `json:"size"`
	OffsetLag int64  `json:"offsetLag"`
	IsFuture  bool   `json:"isFuture"`
}

// observedLogDirs is kafka-log-dirs --describe: the brokers asked, then
// each one's log dir with its replicas' sizes and offset lags, as JSON;
// a replica whose size was not observed is left out.
func observedLogDirs(s *observe.Sample, args []string, fl map[string]string, out io.Writer) error {
	if _, ok := fl["describe"]; !ok {
		return fmt.Errorf("%w: --describe [--topic-list T1,T2] [--broker-list 1,2]", kafkatools.ErrUsage)
	}
	topicList, _ := lastValue(args, "topic-list")
	brokerList, _ := lastValue(args, "broker-list")
	topics, brokers := splitList(topicList), splitList(brokerList)
	doc := logDirsJSON{Version: 1, Brokers: []brokerDirsJSON{}}
	var answered []string
	for _, b := range s.Brokers {
		if len(brokers) > 0 && !slices.Contains(brokers, fmt.Sprint(b.ID)) || b.LogDir == "" {
			continue
		}
		answered = append(answered, fmt.Sprint(b.ID))
		dir := logDirJSONs{LogDir: b.LogDir, Partitions: []partitionJSON{}}
		for _, p := range s.Partitions {
			if len(topics) > 0 && !slices.Contains(topics, p.Topic) {
				continue
			}
			for _, l := range p.Logs {
				if l.Broker == b.ID && l.Size != observe.NotObserved {
					dir.Partitions = append(dir.Partitions, partitionJSON{Partition: fmt.Sprintf("%s-%d", p.Topic, p.Partition), Size: l.Size, OffsetLag: l.OffsetLag})
				}
			}
		}
		doc.Brokers = append(doc.Brokers, brokerDirsJSON{Broker: b.ID, LogDirs: []logDirJSONs{dir}})
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "Querying brokers for log directories information\nReceived log directory information from brokers %s\n%s\n", strings.Join(answered, ","), js)
	return err
}

// lastValue is the last value given to flag name (--name V or --name=V),
// for the flags the tools of an observed cluster read that [kafkatools.Flags] does
// not know to take a value.
func lastValue(args []string, name string) (string, bool) {
	vs := kafkatools.Repeated(args, name)
	if len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// synonymsString prints a config's synonyms as Kafka 3.7's
// ConfigCommand.describeResourceConfig does: SOURCE:name=value, separated
// by ", ".
func synonymsString(synonyms []observe.Synonym) string {
	parts := make([]string, len(synonyms))
	for i, syn := range synonyms {
		parts[i] = syn.Source + ":" + syn.Name + "=" + syn.Value
	}
	return strings.Join(parts, ", ")
}

// dynamicTopicConfig is the source of a config the topic sets itself.
const dynamicTopicConfig = "DYNAMIC_TOPIC_CONFIG"

// splitList splits a comma-separated list, "" being none.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
