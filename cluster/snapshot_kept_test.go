package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/replica"
)

// TestSnapshotsShareIdleReplicas: consecutive snapshots hold the same copy
// of a replica nothing changed between them (an idle partition of one
// replica), and new copies of those that changed (a partition a producer
// writes to).
func TestSnapshotsShareIdleReplicas(t *testing.T) {
	w, err := New(Config{Seed: 1, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 1, Timeline: TimelineConfig{SnapshotEveryMs: 1000}})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(TopicSpec{Name: "idle", Partitions: 3, ReplicationFactor: 1}))
	require.NoError(t, w.CreateTopic(TopicSpec{Name: "busy", Partitions: 1, ReplicationFactor: 1}))
	require.NoError(t, w.AddProducer(ProducerConfig{Name: "p", Topic: "busy", Acks: "1", RecordsPerSec: 20}))
	for range 10 {
		require.NoError(t, w.RunFor(1000))
	}
	require.Greater(t, len(w.snaps), 4)
	copies := func(tp partitionKey) map[any]bool {
		seen := map[any]bool{}
		for _, s := range w.snaps[len(w.snaps)-4:] {
			for _, b := range s.state.brokers {
				if p := b.Peek(tp); p != nil {
					seen[p] = true
				}
			}
		}
		return seen
	}
	for p := range int32(3) {
		require.Len(t, copies(partitionKey{Topic: "idle", Partition: p}), 1, "idle-%d: the last four snapshots should hold one copy", p)
	}
	require.Len(t, copies(partitionKey{Topic: "busy", Partition: 0}), 4, "busy-0: each snapshot holds its own copy")
}

// TestSnapshotsShareIdleFollowers: a follower of an idle partition, whose
// fetch its leader holds in their session, is not copied again by the
// snapshots after its first fetches: not when the request timeout its
// first fetch set (replica.socket.timeout.ms, 30 s) comes, nor later.
func TestSnapshotsShareIdleFollowers(t *testing.T) {
	w, err := New(Config{Seed: 1, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 1, Timeline: TimelineConfig{SnapshotEveryMs: 5000}})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(TopicSpec{Name: "idle", Partitions: 3, ReplicationFactor: 3}))
	for range 60 {
		require.NoError(t, w.RunFor(1000))
	}
	for p := range int32(3) {
		tp := partitionKey{Topic: "idle", Partition: p}
		for i := range w.brokers {
			seen := map[any]bool{}
			for _, s := range w.snaps {
				if s.timeMs < 15_000 {
					continue
				}
				if r := s.state.brokers[i].Peek(tp); r != nil {
					seen[r] = true
				}
			}
			require.Len(t, seen, 1, "idle-%d on broker %d: the snapshots from 15 s on should hold one copy", p, i+1)
		}
	}
}
