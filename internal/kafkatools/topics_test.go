package kafkatools_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// topicsWorld has topics users (2 partitions) and logs (compacted, 1
// partition), __consumer_offsets (3 partitions, created by a group), and
// broker 3 killed long enough to be fenced.
func topicsWorld(t *testing.T, rules replica.RuleSet) *cluster.World {
	w, err := cluster.New(cluster.Config{Seed: 1, Rules: rules, MinInsyncReplicas: 2, OffsetsTopicNumPartitions: 3})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "users", Partitions: 2, ReplicationFactor: 3}))
	compact := cluster.DefaultLogConfig()
	compact.CleanupPolicy, compact.RetentionMs = "compact", 60000
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "logs", Assignment: [][]int32{{3, 1}}, Config: &compact}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "g", Topics: []string{"users"}}))
	require.NoError(t, w.RunFor(1000))
	require.NoError(t, w.Kill(3))
	require.NoError(t, w.RunFor(10000))
	return w
}

// TestDescribeTopicsPrintsKafkasLayout holds Kafka 3.7's TopicCommand
// layout (under rules v3.7): the topics sorted, the internal one with its
// configs, each topic's id (never the zero UUID), the partitions as the
// controller has them, the ISR in the replicas' order, as a partition
// record lists it; the report options print partitions only.
func TestDescribeTopicsPrintsKafkasLayout(t *testing.T) {
	w := topicsWorld(t, replica.V3_7)
	ids := map[string]string{}
	for _, tp := range w.Topics() {
		require.NotEqual(t, "AAAAAAAAAAAAAAAAAAAAAA", tp.ID, "topic %s has the zero id", tp.Name)
		ids[tp.Name] = tp.ID
	}
	got, err := kafkatools.DescribeTopics(w, kafkatools.TopicsOptions{})
	require.NoError(t, err)
	want := "Topic: __consumer_offsets\tTopicId: " + ids["__consumer_offsets"] + "\tPartitionCount: 3\tReplicationFactor: 3\tConfigs: compression.type=producer,cleanup.policy=compact,segment.bytes=104857600,min.insync.replicas=2\n" +
		"\tTopic: __consumer_offsets\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2\n" +
		"\tTopic: __consumer_offsets\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\n" +
		"\tTopic: __consumer_offsets\tPartition: 2\tLeader: 1\tReplicas: 3,1,2\tIsr: 1,2\n" +
		"Topic: logs\tTopicId: " + ids["logs"] + "\tPartitionCount: 1\tReplicationFactor: 2\tConfigs: cleanup.policy=compact,retention.ms=60000,min.insync.replicas=2\n" +
		"\tTopic: logs\tPartition: 0\tLeader: 1\tReplicas: 3,1\tIsr: 1\n" +
		"Topic: users\tTopicId: " + ids["users"] + "\tPartitionCount: 2\tReplicationFactor: 3\tConfigs: min.insync.replicas=2\n" +
		"\tTopic: users\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2\n" +
		"\tTopic: users\tPartition: 1\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kafka-topics --describe (-want +got):\n%s", diff)
	}
	got, err = kafkatools.DescribeTopics(w, kafkatools.TopicsOptions{ExcludeInternal: true, UnderMinISR: true})
	require.NoError(t, err)
	want = "\tTopic: logs\tPartition: 0\tLeader: 1\tReplicas: 3,1\tIsr: 1\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kafka-topics --describe --exclude-internal --under-min-isr-partitions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("__consumer_offsets\nlogs\nusers\n", kafkatools.ListTopics(w, kafkatools.TopicsOptions{})); diff != "" {
		t.Errorf("kafka-topics --list (-want +got):\n%s", diff)
	}
	for _, o := range []kafkatools.TopicsOptions{{Topic: "x"}, {Topic: "__consumer_offsets", ExcludeInternal: true}} {
		got, err = kafkatools.DescribeTopics(w, o)
		require.ErrorIs(t, err, kafkatools.ErrUnknownTopic)
		if diff := cmp.Diff("Error while executing topic command : Topic '"+o.Topic+"' does not exist as expected\n", got); diff != "" {
			t.Errorf("kafka-topics --describe --topic %s (-want +got):\n%s", o.Topic, diff)
		}
	}
}

// TestDescribeTopicsPrintsKafka4sELR: under rules v4 each partition line
// ends with Kafka 4's Elr and LastKnownElr columns (TopicCommand reads
// them from DescribeTopicPartitions): empty while the ISR holds
// min.insync.replicas members, the dropped members below it, and the last
// known leader of a partition left without one.
func TestDescribeTopicsPrintsKafka4sELR(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Rules: replica.V4, MinInsyncReplicas: 2})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Assignment: [][]int32{{2, 3, 1}}}))
	require.NoError(t, w.RunFor(1000))
	describe := func() string {
		t.Helper()
		got, err := kafkatools.DescribeTopics(w, kafkatools.TopicsOptions{Topic: "orders"})
		require.NoError(t, err)
		return got[strings.Index(got, "\n")+1:]
	}
	if diff := cmp.Diff("\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,3,1\tElr: \tLastKnownElr: \n", describe()); diff != "" {
		t.Errorf("all in sync (-want +got):\n%s", diff)
	}
	require.NoError(t, w.Stop(3))
	require.NoError(t, w.Stop(1))
	require.NoError(t, w.RunFor(1000))
	if diff := cmp.Diff("\tTopic: orders\tPartition: 0\tLeader: 2\tReplicas: 2,3,1\tIsr: 2\tElr: 1\tLastKnownElr: \n", describe()); diff != "" {
		t.Errorf("brokers 3 then 1 stopped (-want +got):\n%s", diff)
	}
	require.NoError(t, w.Stop(2))
	require.NoError(t, w.RunFor(1000))
	if diff := cmp.Diff("\tTopic: orders\tPartition: 0\tLeader: none\tReplicas: 2,3,1\tIsr: \tElr: 1,2\tLastKnownElr: 2\n", describe()); diff != "" {
		t.Errorf("every broker stopped (-want +got):\n%s", diff)
	}
}

// TestDescribeTopicsLeavesOutDefaults: a topic with Kafka's default
// configs prints an empty Configs column; a zero topic id is left out.
func TestDescribeTopicsLeavesOutDefaults(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Rules: replica.Modern})
	require.NoError(t, err)
	def := kafkalog.DefaultConfig()
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, Config: &def}))
	got, err := kafkatools.DescribeTopics(w, kafkatools.TopicsOptions{Topic: "t"})
	require.NoError(t, err)
	if first, _, _ := strings.Cut(got, "\n"); !strings.HasSuffix(first, "\tConfigs: ") {
		t.Errorf("a topic with Kafka's defaults: %q, want an empty Configs column", first)
	}
}
