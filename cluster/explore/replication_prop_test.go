package explore_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
	"pgregory.net/rapid"
)

// TestAnyFaultsKeepBasicInvariants: whatever the rule set and the faults
// (unrestricted power cuts, unclean elections), no run fails internally,
// no replica's HW leaves its log, and no two brokers lead one epoch.
// (Losses and divergence are allowed here: the rules may lose data.)
func TestAnyFaultsKeepBasicInvariants(t *testing.T) {
	kinds := []cluster.ActionKind{cluster.ActProduce, cluster.ActRun, cluster.ActKill, cluster.ActStart,
		explore.OpBounce, cluster.ActPowerCut, cluster.ActStop, cluster.ActWriteback, explore.OpIsolate, cluster.ActHeal}
	rapid.Check(t, func(t *rapid.T) {
		cfg := explore.ReplicationConfig{
			Rules:                       replica.RuleSet(rapid.IntRange(int(replica.V0_10), int(replica.Modern)).Draw(t, "rules")),
			MinInsyncReplicas:           rapid.IntRange(1, 3).Draw(t, "min.insync.replicas"),
			UncleanLeaderElectionEnable: rapid.Bool().Draw(t, "unclean"),
		}
		n := rapid.IntRange(1, 25).Draw(t, "operations")
		ops := make([]explore.Op, n)
		for i := range ops {
			ops[i] = explore.Op{
				Kind:   rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("op %d", i)),
				Target: rapid.Int32Range(-2, 3).Draw(t, fmt.Sprintf("target %d", i)),
				Torn:   rapid.Bool().Draw(t, fmt.Sprintf("torn %d", i)),
				Ms:     rapid.Int64Range(1, 20000).Draw(t, fmt.Sprintf("ms %d", i)),
				Value:  fmt.Sprintf("v%d", i),
			}
		}
		seed := rapid.Uint64().Draw(t, "seed")
		o, _, err := explore.RunSchedule(cfg, seed, ops)
		if err != nil {
			t.Fatalf("under %s the world failed internally: %v\n%s", cfg.Rules, err, explore.FormatSchedule(ops))
		}
		for _, v := range o.Violations {
			if v.Invariant == cluster.InvHWWithinLog || v.Invariant == cluster.InvOneLeaderPerEpoch {
				t.Fatalf("under %s a replica broke %s: %v\n%s", cfg.Rules, v.Invariant, v, explore.FormatSchedule(ops))
			}
		}
	})
}
