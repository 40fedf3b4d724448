package cluster_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// logDirs lists the directories under broker id's log.dirs, with the random
// part of a -delete name written as X.
func logDirs(t *testing.T, w *cluster.World, id int32) []string {
	fsys, err := w.BrokerFS(id)
	require.NoError(t, err)
	names, err := fsys.List(cluster.LogDir)
	require.NoError(t, err)
	uuid := regexp.MustCompile(`\.[0-9a-f]{32}-delete$`)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "audit") || strings.HasPrefix(n, "orders") {
			out = append(out, uuid.ReplaceAllString(n, ".X-delete"))
		}
	}
	return out
}

// TestDeleteTopic follows Kafka 3.7's topic deletion: the controller drops
// the topic, the running brokers rename its replicas' directories -delete and
// delete them file.delete.delay.ms later, a broker that is down keeps its
// directory, and a group subscribed to it rebalances so that nobody owns its
// partitions any more and its committed offsets are gone. An unknown topic is
// UNKNOWN_TOPIC_OR_PARTITION; the internal topic and a producer's topic are
// refused.
func TestDeleteTopic(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 7, Rules: replica.Modern, OffsetsTopicNumPartitions: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 2, ReplicationFactor: 2}))
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "audit", Partitions: 3, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "orders", Acks: "all"}))
	for _, name := range []string{"C1", "C2"} {
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: name, Group: "g", Topics: []string{"orders", "audit"}, Assignors: []string{"cooperative-sticky"}}))
	}
	require.NoError(t, w.RunFor(20000))
	owned := func() []string {
		var out []string
		for _, g := range w.State().Groups {
			for _, m := range g.Members {
				for _, p := range m.Partitions {
					out = append(out, p.Topic)
				}
			}
		}
		return out
	}
	require.Contains(t, owned(), "audit", "the group owns audit's partitions before the deletion")
	committedAudit := func() bool {
		for _, g := range w.State().Groups {
			for _, o := range g.Offsets {
				if o.Topic == "audit" && o.Committed >= 0 {
					return true
				}
			}
		}
		return false
	}
	require.True(t, committedAudit(), "the group committed audit's offsets before the deletion")

	err = w.DeleteTopic("nope")
	require.True(t, errors.Is(err, cluster.ErrUnknownTopicOrPartition) && errors.Is(err, cluster.ErrInvalidConfig), "unknown topic: %v", err)
	require.ErrorIs(t, w.DeleteTopic("orders"), cluster.ErrInvalidConfig, "producer p writes orders")
	require.ErrorIs(t, w.DeleteTopic(cluster.OffsetsTopic), cluster.ErrInvalidConfig)

	require.NoError(t, w.Kill(3))
	require.NoError(t, w.DeleteTopic("audit"))
	for _, tp := range w.Topics() {
		require.NotEqual(t, "audit", tp.Name)
	}
	want := map[int32][]string{
		1: {"audit-0.X-delete", "audit-1.X-delete", "audit-2.X-delete", "orders-0"},
		2: {"audit-0.X-delete", "audit-1.X-delete", "audit-2.X-delete", "orders-0", "orders-1"},
		3: {"audit-0", "audit-1", "audit-2", "orders-1"}, // down at the deletion: kept as it was
	}
	got := map[int32][]string{1: logDirs(t, w, 1), 2: logDirs(t, w, 2), 3: logDirs(t, w, 3)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log dirs right after the deletion (-want +got):\n%s", diff)
	}

	require.NoError(t, w.RunFor(30000))
	require.NotContains(t, owned(), "audit", "after the rebalance nobody owns a partition of audit")
	require.False(t, committedAudit(), "audit's committed offsets are removed")
	for _, g := range w.State().Groups {
		require.Equal(t, "Stable", g.State, "group %s", g.Name)
	}

	require.NoError(t, w.RunFor(cluster.DefaultLogConfig().FileDeleteDelayMs))
	want[1], want[2] = []string{"orders-0"}, []string{"orders-0", "orders-1"}
	got = map[int32][]string{1: logDirs(t, w, 1), 2: logDirs(t, w, 2), 3: logDirs(t, w, 3)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log dirs file.delete.delay.ms later (-want +got):\n%s", diff)
	}
	require.Empty(t, w.InternalErrors())
}
