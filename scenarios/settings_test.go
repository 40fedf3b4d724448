package scenarios

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/stretchr/testify/require"
)

func TestParseGroupActions(t *testing.T) {
	compact := cluster.DefaultLogConfig()
	compact.CleanupPolicy, compact.MinCleanableDirtyRatio, compact.DeleteRetentionMs, compact.SegmentBytes = "compact", 0.5, 60000, 213
	retention := cluster.DefaultLogConfig()
	retention.RetentionMs, retention.RetentionBytes, retention.SegmentBytes = 60000, 1000, 210
	tests := []struct {
		line string
		want cluster.Action
	}{
		{"add-consumer name=E1 group=eager-g topics=orders,more assignors=sticky,range poll=1000",
			cluster.Action{Kind: cluster.ActAddConsumer, Partition: -1, Consumer: cluster.ConsumerConfig{
				Name: "E1", Group: "eager-g", Topics: []string{"orders", "more"}, Assignors: []string{"sticky", "range"}, PollIntervalMs: 1000}}},
		{"add-consumer name=W1 group=workers topics=tasks instance=w1 commit=sync reset=earliest auto-commit=5000 max-poll-records=1 session=45000 heartbeat=3000 max-poll=300000",
			cluster.Action{Kind: cluster.ActAddConsumer, Partition: -1, Consumer: cluster.ConsumerConfig{
				Name: "W1", Group: "workers", Topics: []string{"tasks"}, GroupInstanceID: "w1", CommitMode: "sync", AutoOffsetReset: "earliest",
				AutoCommitIntervalMs: 5000, MaxPollRecords: 1, SessionTimeoutMs: 45000, HeartbeatIntervalMs: 3000, MaxPollIntervalMs: 300000}}},
		{"add-consumer name=c topic=t partition=2",
			cluster.Action{Kind: cluster.ActAddConsumer, Partition: -1, Consumer: cluster.ConsumerConfig{Name: "c", Topic: "t", Partition: 2}}},
		{"close-consumer W1", cluster.Action{Kind: cluster.ActCloseConsumer, Partition: -1, Name: "W1"}},
		{"crash-consumer W1", cluster.Action{Kind: cluster.ActCrashConsumer, Partition: -1, Name: "W1"}},
		{"restart-consumer W1", cluster.Action{Kind: cluster.ActRestartConsumer, Partition: -1, Name: "W1"}},
		{"stall-consumer W1 ms=400000", cluster.Action{Kind: cluster.ActStallConsumer, Partition: -1, Name: "W1", Ms: 400000}},
		{"add-partitions name=users count=4", cluster.Action{Kind: cluster.ActAddPartitions, Partition: -1, Name: "users", N: 4}},
		{"delete-topic name=audit", cluster.Action{Kind: cluster.ActDeleteTopic, Partition: -1, Name: "audit"}},
		{"produce p key=k2 null", cluster.Action{Kind: cluster.ActProduce, Partition: -1, Name: "p", Key: "k2", Null: true}},
		{"corrupt 1 file=crc-0/00000000000000000000.log offset=362 flip",
			cluster.Action{Kind: cluster.ActCorrupt, Partition: -1, Broker: 1, Name: "crc-0/00000000000000000000.log", Offset: 362, Flip: true}},
		{"corrupt 2 file=z-0/00000000000000000000.log offset=552 zero=138",
			cluster.Action{Kind: cluster.ActCorrupt, Partition: -1, Broker: 2, Name: "z-0/00000000000000000000.log", Offset: 552, N: 138}},
		{"create-topic name=profiles partitions=1 rf=1 cleanup=compact min-dirty-ratio=0.5 delete-retention-ms=60000 segment-bytes=213",
			cluster.Action{Kind: cluster.ActCreateTopic, Partition: -1, Topic: cluster.TopicSpec{Name: "profiles", Partitions: 1, ReplicationFactor: 1, Config: &compact}}},
		{"create-topic name=events partitions=1 rf=1 retention-ms=60000 retention-bytes=1000 segment-bytes=210",
			cluster.Action{Kind: cluster.ActCreateTopic, Partition: -1, Topic: cluster.TopicSpec{Name: "events", Partitions: 1, ReplicationFactor: 1, Config: &retention}}},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got, err := parseAction(tc.line)
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseAction (-want +got):\n%s", diff)
			}
		})
	}
}

// A corrupt wants a file and either flip or zero=N.
func TestParseCorruptRefuses(t *testing.T) {
	for _, line := range []string{
		"corrupt 1 offset=3 flip",
		"corrupt 1 file=a-0/0.log offset=3",
		"corrupt 1 file=a-0/0.log offset=3 flip zero=2",
		"corrupt 1 file=a-0/0.log offset=3 torn",
	} {
		if _, err := parseAction(line); !errors.Is(err, ErrSyntax) {
			t.Errorf("parseAction(%q): %v, want ErrSyntax", line, err)
		}
	}
}

func TestProduceMany(t *testing.T) {
	got, err := produceMany("produce-many p count=3 partition=1 prefix=a1 key=k")
	require.NoError(t, err)
	want := []cluster.Action{
		{Kind: cluster.ActProduce, Name: "p", Key: "k", Value: "a10", Partition: 1},
		{Kind: cluster.ActProduce, Name: "p", Key: "k", Value: "a11", Partition: 1},
		{Kind: cluster.ActProduce, Name: "p", Key: "k", Value: "a12", Partition: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("produceMany (-want +got):\n%s", diff)
	}
}

func TestApplyGroupClusterKeys(t *testing.T) {
	var cfg cluster.Config
	require.NoError(t, applyConfig(&cfg, "tick=100 retention-check=5000 cleaner-backoff=1000 offsets-partitions=10 group-delay=0"))
	g := group.DefaultConfig()
	g.GroupInitialRebalanceDelayMs = 0
	want := cluster.Config{TickMs: 100, LogRetentionCheckIntervalMs: 5000, LogCleanerBackoffMs: 1000, OffsetsTopicNumPartitions: 10, Group: &g}
	if diff := cmp.Diff(want, cfg, cmp.Comparer(func(a, b kafkalog.Config) bool { return a == b })); diff != "" {
		t.Errorf("applyConfig (-want +got):\n%s", diff)
	}
}

func TestParseGroupErrors(t *testing.T) {
	head := "name x\ngroup consumers\ntitle x\nsummary x\n"
	tests := []struct{ name, text, want string }{
		{"group settings without group", head + "step 0 a\ndo add-consumer name=c topics=t\n", "no group="},
		{"stall without ms number", head + "step 0 a\ndo stall-consumer W1 ms=soon\n", `ms="soon" is not a number`},
		{"close two names", head + "step 0 a\ndo close-consumer W1 W2\n", "want one name"},
		{"produce stray word", head + "step 0 a\ndo produce p tombstone\n", "optionally null"},
		{"produce-many no count", head + "step 0 a\ndo produce-many p\n", "count=0 not in 1..10000"},
		{"produce-many no name", head + "step 0 a\ndo produce-many count=3\n", "wants a producer name"},
		{"bad dirty ratio", head + "step 0 a\ndo create-topic name=t min-dirty-ratio=half\n", "min-dirty-ratio"},
		{"group fact without name", head + "step 0 a\nexpect group state=Stable\n", "needs a group name"},
		{"group fact unknown key", head + "step 0 a\nexpect group g colour=red\n", `"colour=red" is not state`},
		{"group fact bad offset", head + "step 0 a\nexpect group g offset=t-0:ten/20\n", "is not topic-N:COMMITTED/LOG-END"},
		{"group fact nothing", head + "step 0 a\nexpect group g\n", "nothing expected"},
		{"segments without partition", head + "step 0 a\nexpect segments events 0:[0]\n", "not topic-N"},
		{"segments bad", head + "step 0 a\nexpect segments events-0 zero:[0]\n", "is not BASE:[offsets]"},
		{"segments none", head + "step 0 a\nexpect segments events-0\n", "no segment written"},
		{"partition of unknown topic", head + "step 0 a\nexpect users-1 [0 a] 1/1\n", `fact about "users-1"`},
		{"b fact without partition", head + "step 0 a\nexpect b1 1/1\n", "need a partition line"},
		{"bad view", head + "view everything\n", "view is logs or groups"},
		{"bad group delay", "cluster group-delay=soon\n", "group-delay=soon"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.txt", tc.text)
			require.ErrorIs(t, err, ErrSyntax)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}
