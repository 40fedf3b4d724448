package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestPropSnapshotsOfIdleReplicasRestoreAsAFullReplay: snapshots hold the
// same copy of a replica nothing changed since the last one; for any
// schedule of faults, on a world of idle partitions beside busy ones, a
// consumer group and a compacted topic, the world rebuilt from the
// snapshots at any moment is the full replay's, and both go on alike
// under the same faults: same state, same events. Replay: go test
// ./cluster -run TestPropSnapshotsOfIdleReplicasRestoreAsAFullReplay
// -rapid.seed=N.
func TestPropSnapshotsOfIdleReplicasRestoreAsAFullReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		every := rapid.Int64Range(300, 4000).Draw(t, "snapshot every ms")
		idle := rapid.IntRange(1, 12).Draw(t, "idle partitions")
		faults := drawFaults(t)
		after := drawFaults(t)
		build := func(tl cluster.TimelineConfig) *cluster.World {
			w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2,
				LogRetentionCheckIntervalMs: 2000, LogCleanerBackoffMs: 1000, Timeline: tl})
			if err != nil {
				t.Fatalf("seed %d: new world: %v", seed, err)
			}
			_ = w.CreateTopic(cluster.TopicSpec{Name: "idle", Partitions: idle, ReplicationFactor: 3})
			_ = w.CreateTopic(cluster.TopicSpec{Name: "idle1", Partitions: idle, ReplicationFactor: 1})
			_ = w.CreateTopic(cluster.TopicSpec{Name: "busy", Partitions: 2, ReplicationFactor: 3})
			_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "busy", Acks: "all", Keys: []string{"a", "b"}, RecordsPerSec: 5})
			_ = w.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "g", Topics: []string{"busy"}, PollIntervalMs: 1000})
			for _, a := range faults {
				_ = w.Do(a) // invalid faults (starting a running broker) are refused alike
			}
			return w
		}
		full := build(cluster.TimelineConfig{})
		snap := build(cluster.TimelineConfig{SnapshotEveryMs: every})
		ms := rapid.Int64Range(0, full.NowMs()).Draw(t, "moment ms")
		a, b := atBoth(t, seed, full, snap, ms)
		for _, w := range []*cluster.World{a, b} {
			for _, f := range after {
				_ = w.Do(f)
			}
		}
		if diff := cmp.Diff(a.State().Text(), b.State().Text()); diff != "" {
			t.Fatalf("seed %d, faults %v then %v from %d ms: the world rebuilt from snapshots (every %d ms) went elsewhere than the full replay (-replay +snapshot):\n%s", seed, faults, after, ms, every, diff)
		}
		if diff := cmp.Diff(a.Events(), b.Events()); diff != "" {
			t.Fatalf("seed %d, faults %v then %v from %d ms: the world rebuilt from snapshots (every %d ms) recorded other events than the full replay (-replay +snapshot):\n%s", seed, faults, after, ms, every, diff)
		}
	})
}
