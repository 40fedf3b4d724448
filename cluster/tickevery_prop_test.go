package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestPropTimersOnManyPartitions: a world of many partitions, most of them
// idle, under random kills, power cuts, stops and starts, goes where the
// same world ticking every replica and checking every partition at every
// step goes: the same events, violations and state. Replay: go test
// ./cluster -run TestPropTimersOnManyPartitions -rapid.seed=N.
func TestPropTimersOnManyPartitions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		rules := rapid.SampledFrom([]replica.RuleSet{replica.Modern, replica.V0_10}).Draw(t, "rules")
		parts := rapid.IntRange(1, 40).Draw(t, "partitions")
		faults := drawFaults(t)
		build := func(every bool) *cluster.World {
			w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: rules, MinInsyncReplicas: 2, TickEveryPartition: every})
			if err != nil {
				t.Fatalf("seed %d: new world: %v", seed, err)
			}
			_ = w.CreateTopic(cluster.TopicSpec{Name: "idle", Partitions: parts, ReplicationFactor: 3})
			_ = w.CreateTopic(cluster.TopicSpec{Name: "busy", Partitions: 2, ReplicationFactor: 3})
			_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "busy", Acks: "1", RecordsPerSec: 20})
			for _, a := range faults {
				_ = w.Do(a) // invalid faults (starting a running broker) are refused alike
			}
			return w
		}
		want, got := build(true), build(false)
		if diff := cmp.Diff(want.Events(), got.Events()); diff != "" {
			t.Fatalf("seed %d, %d partitions, faults %v: events (-every partition +timers):\n%s", seed, parts, faults, diff)
		}
		if diff := cmp.Diff(want.Violations(), got.Violations()); diff != "" {
			t.Fatalf("seed %d: violations (-every partition +timers):\n%s", seed, diff)
		}
		if diff := cmp.Diff(want.State(), got.State()); diff != "" {
			t.Fatalf("seed %d: state (-every partition +timers):\n%s", seed, diff)
		}
	})
}
