package kafkatools_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/replica"
)

// worldSession runs tools on one world, now: the simplest Session.
type worldSession struct{ w *cluster.World }

func (s worldSession) Look(fn func(*cluster.World) error) error { return fn(s.w) }
func (s worldSession) Do(fn func(*cluster.World) error) error   { return fn(s.w) }
func (s worldSession) Act(out io.Writer, check func(*cluster.World) (cluster.Action, error), done string) (refused, err error) {
	a, err := check(s.w)
	if err != nil {
		return err, nil
	}
	if err := s.w.Do(a); err != nil {
		return nil, err
	}
	io.WriteString(out, done)
	return nil, nil
}

// run runs the line's tool on s.
func run(t require.TestingT, s kafkatools.Session, line string) (string, error) {
	words, err := kafkatools.SplitLine(line)
	require.NoError(t, err)
	for _, tool := range kafkatools.Tools() {
		if tool.Name == words[0] {
			var out bytes.Buffer
			err := tool.Run(s, words[1:], &out)
			return out.String(), err
		}
	}
	return "", fmt.Errorf("no tool %s", words[0])
}

// TestToolsOnAWorld runs each tool on the world the page serves, through
// the simplest session: what the terminal prints of them is the tools'
// own (web's terminal tests check it whole).
func TestToolsOnAWorld(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	require.NoError(t, w.RunFor(10_000))
	s := worldSession{w}
	for _, tc := range []struct{ line, first string }{
		{"kafka-topics --list", "__consumer_offsets"},
		{"kafka-topics --describe --topic profiles", "Topic: profiles\tTopicId: "},
		{"kafka-topics --create --topic audit --partitions 2", "Created topic audit."},
		{"kafka-consumer-groups --list", "billing"},
		{"kafka-consumer-groups --describe --group billing --state", ""},
		{"kafka-configs --describe --topic audit", "Dynamic configs for topic audit are:"},
		{"kafka-configs --alter --topic audit --add-config retention.ms=60000", "Completed updating config for topic audit."},
		{"kafka-metadata-quorum describe --status", "ClusterId:              "},
		{"kafka-metadata-quorum --bootstrap-server b1:9092 describe --replication", "NodeId\tDirectoryId           \tLogEndOffset\tLag\t"},
		{"kafka-metadata-quorum describe --replication --human-readable", "NodeId\tDirectoryId           \tLogEndOffset\tLag\t"},
		{"kafka-transactions list", "TransactionalId\tCoordinator\tProducerId\tTransactionState\t"},
		{"kafka-transactions describe-producers --topic profiles --partition 0", "ProducerId\tProducerEpoch\tLatestCoordinatorEpoch\t"},
		{"kafka-transactions find-hanging --topic profiles", "Topic\tPartition\tProducerId\t"},
		{"kafka-dump-log --files /kafka-logs/profiles-0/00000000000000000000.index", "(broker 1)"},
	} {
		out, err := run(t, s, tc.line)
		require.NoError(t, err, "%s\n%s", tc.line, out)
		if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, tc.first) {
			t.Errorf("%s: first line %q, want it to start with %q", tc.line, first, tc.first)
		}
	}
	if out, err := run(t, s, "kafka-configs --describe --topic audit"); err != nil || !strings.Contains(out, "  retention.ms=60000 sensitive=false") {
		t.Errorf("after the alter, audit's configs: %v\n%s", err, out)
	}
}

// TestToolsTakeAnyWords types random words after each tool's name: no
// tool panics or fails inside the world, and a tool that only describes or
// lists changes nothing.
func TestToolsTakeAnyWords(t *testing.T) {
	words := []string{"--describe", "--list", "--create", "--alter", "--delete", "--topic", "--group", "--members", "--verbose", "--state",
		"--partitions", "--replication-factor", "--config", "--if-exists", "--if-not-exists", "--exclude-internal", "--under-min-isr-partitions",
		"--entity-type", "--entity-name", "--add-config", "--delete-config", "--all", "--reset-offsets", "--to-earliest", "--to-offset", "--execute",
		"--status", "--files", "--broker", "--print-data-log", "--offsets-decoder", "--bootstrap-server=x:9092",
		"orders", "profiles", "billing", "topics", "brokers", "nope", "3", "-1", "0", "x", "", "retention.ms=1000", "cleanup.policy=[compact,delete]",
		"segment.bytes", "a=b=c", "list", "describe", "describe-producers", "find-hanging", "--transactional-id", "--partition", "--broker-id",
		"--max-transaction-timeout", "/kafka-logs/orders-0/00000000000000000000.log", "/kafka-logs/replication-offset-checkpoint", "b2", "9"}
	tools := kafkatools.Tools()
	rapid.Check(t, func(t *rapid.T) {
		w, err := cluster.New(cluster.Config{Seed: rapid.Uint64().Draw(t, "seed"), Brokers: 3, OffsetsTopicNumPartitions: 3})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 2, ReplicationFactor: 3}))
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "billing", Topics: []string{"orders"}}))
		require.NoError(t, w.RunFor(5000))
		tool := rapid.SampledFrom(tools).Draw(t, "tool")
		args := rapid.SliceOfN(rapid.SampledFrom(words), 0, 8).Draw(t, "words")
		before := w.ActionCount()
		var out bytes.Buffer
		// The error, if any, is a usage error, one the tool printed, or
		// the world's refusal, which the terminal prints: all are fine.
		_ = tool.Run(worldSession{w}, args, &out)
		if w.InternalErrorCount() > 0 {
			t.Fatalf("%s %q: an internal error of the world: %v\n%s", tool.Name, args, w.Err(), out.String())
		}
		line := strings.Join(args, " ")
		reads := !strings.Contains(line, "--create") && !strings.Contains(line, "--alter") && !strings.Contains(line, "--delete") && !strings.Contains(line, "--execute")
		if reads && w.ActionCount() != before {
			t.Fatalf("%s %q only reads, yet the world took %d actions\n%s", tool.Name, args, w.ActionCount()-before, out.String())
		}
	})
}

// TestToolsAgreeOnTopicConfigs: every config kafka-topics --describe
// prints in a topic's Configs column, __consumer_offsets' included, has
// the value kafka-configs --describe --all gives it, in the served world
// and in one with Kafka's default segments.
func TestToolsAgreeOnTopicConfigs(t *testing.T) {
	small, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	big, err := cluster.New(cluster.Config{Seed: 1, MinInsyncReplicas: 2, OffsetsTopicNumPartitions: 3})
	require.NoError(t, err)
	require.NoError(t, big.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
	require.NoError(t, big.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "g", Topics: []string{"t"}}))
	for name, w := range map[string]*cluster.World{"served": small, "default segments": big} {
		require.NoError(t, w.RunFor(2000))
		s := worldSession{w}
		topics, err := run(t, s, "kafka-topics --describe")
		require.NoError(t, err)
		for _, line := range strings.Split(topics, "\n") {
			topic, rest, ok := strings.Cut(strings.TrimPrefix(line, "Topic: "), "\t")
			_, column, found := strings.Cut(rest, "Configs: ")
			if !ok || !found || strings.HasPrefix(line, "\t") {
				continue
			}
			configs, err := run(t, s, "kafka-configs --describe --all --entity-type topics --entity-name "+topic)
			require.NoError(t, err)
			for _, kv := range strings.Split(column, ",") {
				require.Contains(t, configs, "  "+kv+" sensitive=false", "%s: %s's %s per kafka-topics, not per kafka-configs", name, topic, kv)
			}
		}
	}
}

// TestQuorumReplicationWithoutAController: with two of three combined
// voters down no controller is active, nobody answers DescribeQuorum, and
// describe --replication fails as the admin call's timeout does; the
// voters that are down lag behind the leader's log once one is back.
func TestQuorumReplicationWithoutAController(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	require.NoError(t, w.RunFor(5_000))
	require.NoError(t, w.Kill(1))
	require.NoError(t, w.Kill(2))
	require.NoError(t, w.RunFor(5_000))
	out, err := run(t, worldSession{w}, "kafka-metadata-quorum describe --replication")
	var printed kafkatools.Printed
	require.ErrorAs(t, err, &printed)
	require.Contains(t, out, "TimeoutException: Call(callName=describeMetadataQuorum) timed out")
	require.NoError(t, w.Start(2))
	require.NoError(t, w.RunFor(20_000))
	out, err = run(t, worldSession{w}, "kafka-metadata-quorum describe --replication")
	require.NoError(t, err, out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	require.Equal(t, []string{"2", "Leader"}, []string{strings.Fields(lines[1])[0], strings.Fields(lines[1])[6]}, out)
	one := strings.Fields(lines[2]) // the followers in the voters' order: 1, then 3
	require.Equal(t, []string{"1", "AAAAAAAAAAAAAAAAAAAAAA"}, one[:2], out)
	require.Equal(t, "Follower", one[6], out)
	require.NotEqual(t, "0", one[3], "broker 1, down, lags the leader's metadata log:\n%s", out)
}

// TestDumpLogDecodesConsumerGroupRecords: a consumer-protocol group's
// records in __consumer_offsets are printed by dump-log --offsets-decoder
// as Kafka 4's is, key and value, and its members' leave as tombstones.
func TestDumpLogDecodesConsumerGroupRecords(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 3, OffsetsTopicNumPartitions: 1, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c1", Group: "g", Topics: []string{"t"}, GroupProtocol: cluster.GroupProtocolConsumer}))
	require.NoError(t, w.RunFor(10_000))
	require.NoError(t, w.CloseConsumer("c1"))
	require.NoError(t, w.RunFor(5_000))
	out, err := run(t, worldSession{w}, "kafka-dump-log --files /kafka-logs/__consumer_offsets-0/00000000000000000000.log --offsets-decoder")
	require.NoError(t, err, out)
	for _, want := range []string{
		`key: {"type":"5","data":{"groupId":"g","memberId":"`,
		`payload: {"version":"0","data":{"instanceId":null,"rackId":null,"clientId":"c1","clientHost":"/10.0.0.100","subscribedTopicNames":["t"],"subscribedTopicRegex":null,"rebalanceTimeoutMs":300000,"serverAssignor":null}}`,
		`key: {"type":"3","data":{"groupId":"g"}} payload: {"version":"0","data":{"epoch":1}}`,
		`key: {"type":"6","data":{"groupId":"g"}} payload: {"version":"0","data":{"assignmentEpoch":1}}`,
		`payload: {"version":"0","data":{"memberEpoch":1,"previousMemberEpoch":0,"state":0,"assignedPartitions":[{"topicId":"`,
		`payload: <DELETE>`,
	} {
		require.Contains(t, out, want)
	}
	require.NotContains(t, out, "Unknown record type")
}
