package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"pgregory.net/rapid"
)

// drawFaults draws a short schedule of faults and runs on three brokers.
func drawFaults(t *rapid.T) []cluster.Action {
	n := rapid.IntRange(1, 8).Draw(t, "steps")
	var out []cluster.Action
	for range n {
		b := rapid.Int32Range(1, 3).Draw(t, "broker")
		switch rapid.IntRange(0, 4).Draw(t, "fault") {
		case 0:
			out = append(out, cluster.Action{Kind: cluster.ActKill, Broker: b})
		case 1:
			out = append(out, cluster.Action{Kind: cluster.ActPowerCut, Broker: b, Torn: rapid.Bool().Draw(t, "torn")})
		case 2:
			out = append(out, cluster.Action{Kind: cluster.ActStart, Broker: b})
		case 3:
			out = append(out, cluster.Action{Kind: cluster.ActStop, Broker: b})
		}
		out = append(out, cluster.Action{Kind: cluster.ActRun, Ms: rapid.Int64Range(1, 6000).Draw(t, "run ms")})
	}
	return out
}

// atBoth rebuilds the moment ms of two worlds that played the same
// actions, full without snapshots and snap with them.
func atBoth(t *rapid.T, seed uint64, full, snap *cluster.World, ms int64) (a, b *cluster.World) {
	a, err := full.AtTime(ms)
	if err != nil {
		t.Fatalf("seed %d: full replay to %d ms: %v", seed, ms, err)
	}
	b, err = snap.AtTime(ms)
	if err != nil {
		t.Fatalf("seed %d: snapshot replay to %d ms: %v", seed, ms, err)
	}
	return a, b
}

// TestPropAtTimeFromSnapshotsIsAFullReplay: for any schedule of faults and
// any moment, the world a snapshot timeline rebuilds is the one a full
// replay rebuilds, and a clone taken at that moment goes on as the
// original does.
func TestPropAtTimeFromSnapshotsIsAFullReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		every := rapid.Int64Range(500, 5000).Draw(t, "snapshot every ms")
		faults := drawFaults(t)
		// Small segments and a short retention, so that record timestamps
		// (the logs' clock) decide what is deleted.
		log := cluster.DefaultLogConfig()
		log.SegmentBytes, log.RetentionMs = 512, 2000
		build := func(tl cluster.TimelineConfig) *cluster.World {
			w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2, CombinedControllers: seed%2 == 0,
				Log: log, LogRetentionCheckIntervalMs: 1000, Timeline: tl})
			if err != nil {
				t.Fatalf("seed %d: new world: %v", seed, err)
			}
			_ = w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2, ReplicationFactor: 3})
			_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", Keys: []string{"a", "b"}, RecordsPerSec: 5})
			for _, a := range faults {
				_ = w.Do(a) // invalid faults (starting a running broker) are refused alike
			}
			return w
		}
		full := build(cluster.TimelineConfig{})
		snap := build(cluster.TimelineConfig{SnapshotEveryMs: every})
		ms := rapid.Int64Range(0, full.NowMs()).Draw(t, "moment ms")
		a, b := atBoth(t, seed, full, snap, ms)
		if diff := cmp.Diff(a.State().Text(), b.State().Text()); diff != "" {
			t.Fatalf("seed %d, faults %v: at %d ms the world rebuilt from a snapshot (every %d ms) differs from the full replay (-replay +snapshot):\n%s", seed, faults, ms, every, diff)
		}
		c := b.Clone()
		for _, w := range []*cluster.World{b, c} {
			_ = w.Do(cluster.Action{Kind: cluster.ActKill, Broker: 1})
			_ = w.RunFor(6000)
		}
		if diff := cmp.Diff(b.State().Text(), c.State().Text()); diff != "" {
			t.Fatalf("seed %d: a clone taken at %d ms, given the same kill and run, went elsewhere (-original +clone):\n%s", seed, ms, diff)
		}
	})
}
