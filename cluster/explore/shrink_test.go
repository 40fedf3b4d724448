package explore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// v010Safe is configuration (b): (a) under 0.10's rules, which lose
// acknowledged records (KIP-101's truncation to the high watermark).
var v010Safe = explore.ReplicationConfig{Rules: replica.V0_10, MinInsyncReplicas: 2, RestrictPowerCuts: true}

// TestShrunkScheduleFailsTheSameWay: a shrunk schedule, replayed, fails
// the way the schedule drawn failed, and what a sweep prints of it (its
// operations and outcome) is that replay. Seeds 55 and 1073 under 0.10's
// rules lose an acknowledged record; a shrinker that kept any failure
// printed for them schedules that lose nothing and only leave a replica
// out of the ISR (isr-complete). The other seeds are every failing seed
// of 1000..1199.
func TestShrunkScheduleFailsTheSameWay(t *testing.T) {
	seeds := []uint64{55, 1073}
	rep := explore.Sweep(v010Safe, explore.SweepOptions{SeedBase: 1000, Schedules: 200, Workers: 4})
	seeds = append(seeds, rep.FailedSeeds()...)
	for _, seed := range seeds {
		drawn := explore.Schedule(v010Safe, seed)
		o, _, err := explore.RunSchedule(v010Safe, seed, drawn)
		kind := o.Kind(err)
		if kind == "" {
			t.Fatalf("seed %d passes under 0.10's rules: the test checks nothing of it", seed)
		}
		ops, shrunk, err := explore.Shrink(v010Safe, seed, drawn)
		if got := shrunk.Kind(err); got != kind {
			t.Errorf("seed %d failed with %s (%s); shrunk to %d operations it fails with %q (%s)\n%s", seed, kind, o, len(ops), got, shrunk,
				explore.FormatSchedule(ops))
		}
		again, _, err := explore.RunSchedule(v010Safe, seed, ops)
		if diff := cmp.Diff(shrunk.String(), again.String()); diff != "" || again.Kind(err) != kind {
			t.Errorf("seed %d: the shrunk schedule replays otherwise (-shrink +replay):\n%s", seed, diff)
		}
		f, _ := v010Safe.Replay(seed)
		var printed []string
		for _, op := range ops {
			printed = append(printed, op.String())
		}
		if diff := cmp.Diff(explore.Failure{Seed: seed, Kind: kind, Ops: len(drawn), Shrunk: printed, Outcome: again.String(),
			Replay: v010Safe.ReplayCommand(seed)}, f); diff != "" {
			t.Errorf("seed %d: the failure a sweep prints is not the shrunk schedule's replay (-want +got):\n%s", seed, diff)
		}
	}
}

// TestShrunkUserSequenceFailsTheSameWay: of a sequence that breaks one
// invariant first (a bad input accepted) after another that breaks a
// different one, shrinking keeps only what breaks the first.
func TestShrunkUserSequenceFailsTheSameWay(t *testing.T) {
	cfg := explore.UserConfig{}
	var ops []explore.UserOp
	for i := range 4 {
		ops = append(ops, explore.UserOp{Kind: explore.UserAction, ID: i + 1, Action: runAction(300)})
	}
	ops = append(ops, explore.UserOp{Kind: explore.UserAction, ID: 9, Action: runAction(100), Bad: true})
	o, _, err := explore.RunUserSequence(cfg, 1, ops)
	kind := o.Kind(err)
	shrunk, so, err := explore.ShrinkUser(cfg, 1, ops)
	if kind != "bad-input-accepted" || so.Kind(err) != kind || len(shrunk) != 1 {
		t.Fatalf("drawn: %s (%s); shrunk to %d: %s (%s)", kind, o, len(shrunk), so.Kind(err), so)
	}
}
