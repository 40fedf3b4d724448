package explore_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// TestPropTimersAreTickingEverything: on random user-level sequences (topics,
// producers, consumers and groups, kills, power cuts, disk damage, moves
// on the timeline), the world that ticks only the replicas with something
// due and checks only the partitions that changed goes exactly where the
// world that ticks every replica and checks every partition at every step
// goes (under the rules of today and of 0.10 and 2.0, whose replicas break
// invariants): the same events, violations, outcome and state. Replay: go test
// ./cluster/explore -run TestPropTimersAreTickingEverything -rapid.seed=N.
func TestPropTimersAreTickingEverything(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1<<20).Draw(t, "seed")
		rules := rapid.SampledFrom([]replica.RuleSet{replica.Modern, replica.V0_10, replica.V2_0}).Draw(t, "rules")
		cfg := explore.UserConfig{Ops: rapid.IntRange(1, 16).Draw(t, "ops"), Rules: &rules}
		ops := explore.UserSequence(cfg, seed)
		timed, tw, err := explore.RunUserSequence(cfg, seed, ops)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		cfg.Configure = func(c *cluster.Config) { c.TickEveryPartition = true }
		every, ew, err := explore.RunUserSequence(cfg, seed, ops)
		if err != nil {
			t.Fatalf("seed %d, every partition: %v", seed, err)
		}
		sameWorld(t, fmt.Sprintf("seed %d, %d ops, rules %s", seed, cfg.Ops, rules), ew, tw)
		if diff := cmp.Diff(every, timed); diff != "" {
			t.Fatalf("seed %d: outcome (-every partition +timers):\n%s", seed, diff)
		}
	})
}

// sameWorld fails unless worlds want and got recorded the same events and
// violations and show the same state.
func sameWorld(t *rapid.T, where string, want, got *cluster.World) {
	if diff := cmp.Diff(want.Events(), got.Events()); diff != "" {
		t.Fatalf("%s: events (-every partition +timers):\n%s", where, diff)
	}
	if diff := cmp.Diff(want.Violations(), got.Violations()); diff != "" {
		t.Fatalf("%s: violations (-every partition +timers):\n%s", where, diff)
	}
	wj, err := want.State().JSON()
	if err != nil {
		t.Fatal(err)
	}
	gj, err := got.State().JSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(wj), string(gj)); diff != "" {
		t.Fatalf("%s: state (-every partition +timers):\n%s", where, diff)
	}
}
