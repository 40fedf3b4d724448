package explore_test

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	exploreCount    = flag.Int("explore.n", 0, "schedules per configuration (default 300, 100 with -short; the other rule sets 200)")
	exploreSeedBase = flag.Uint64("explore.seed-base", 1, "the first seed of the sweeps (seeds seed-base..seed-base+n-1)")
)

func exploreN() int {
	switch {
	case *exploreCount > 0:
		return *exploreCount
	case testing.Short():
		return 100
	}
	// A few hundred keep the default run short; -explore.n runs more
	// (kafkalive explore runs 2000). Under 0.10's rules the first loss
	// from seed 1 is seed 55.
	return 300
}

// sweep runs n seeds of e from -explore.seed-base over all CPUs, shrinking
// the first shrink failures, and splits the failing seeds into those
// that lost, diverged or hit an error, and those that broke an invariant
// of the world's checker.
func sweep(e explore.Explorer, n, shrink int) (rep explore.Report, failing, violating []uint64) {
	// Every schedule builds whole worlds (and kafkalog allocates a 1 MiB
	// recovery buffer per log opened); a larger GC target halves the GC's
	// share of the time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	rep = explore.Sweep(e, explore.SweepOptions{SeedBase: *exploreSeedBase, Schedules: n, Workers: runtime.GOMAXPROCS(0), Shrink: shrink})
	for _, r := range rep.Failed {
		if r.Kind == explore.KindError || r.Kind == explore.KindAckedLoss || r.Kind == explore.KindDiverged {
			failing = append(failing, r.Seed)
		}
		if r.Violating {
			violating = append(violating, r.Seed)
		}
	}
	return rep, failing, violating
}

// modernSafe is configuration (a): acks=all, min.insync.replicas=2, clean
// elections, leader epochs (modern rules), restricted power cuts.
var modernSafe = explore.ReplicationConfig{Rules: replica.Modern, MinInsyncReplicas: 2, RestrictPowerCuts: true}

// TestExploreModernLosesNothing is (a): no schedule loses an acknowledged
// record, leaves the replicas diverged or breaks an invariant.
func TestExploreModernLosesNothing(t *testing.T) {
	n := exploreN()
	start := time.Now()
	rep, failing, violating := sweep(modernSafe, n, 1)
	t.Logf("%s, min.insync.replicas 2, restricted power cuts: %d schedules, %d acknowledged records checked, %d failed, %d broke an invariant, in %v",
		modernSafe.Rules, n, rep.Acked, len(failing), len(violating), time.Since(start))
	if len(rep.Failures) > 0 {
		f := rep.Failures[0]
		t.Fatalf("with modern rules, acks=all and min.insync.replicas=2, %d of %d schedules failed (first seeds %v); seed %d: %s\n%sreplay: %s",
			len(rep.Failed), n, rep.FailedSeeds()[:min(10, len(rep.Failed))], f.Seed, f.Outcome, numbered(f.Shrunk), f.Replay)
	}
}

// TestExploreV010FindsLoss is (b): under 0.10 rules the explorer finds a
// lost or diverged record by itself, and prints the shortest schedule that
// still loses or diverges.
func TestExploreV010FindsLoss(t *testing.T) {
	cfg := modernSafe
	cfg.Rules = replica.V0_10
	n := exploreN()
	start := time.Now()
	rep, failing, violating := sweep(cfg, n, 0)
	t.Logf("%s, same fault model: %d schedules, %d acknowledged records checked, %d lost or diverged, %d broke an invariant, in %v",
		cfg.Rules, n, rep.Acked, len(failing), len(violating), time.Since(start))
	if len(failing) == 0 {
		t.Fatalf("under 0.10 rules no schedule of %d lost or diverged a record; the explorer should find KIP-101's truncation to the high watermark", n)
	}
	f, _ := cfg.Replay(failing[0])
	if f.Kind != explore.KindAckedLoss && f.Kind != explore.KindDiverged {
		t.Fatalf("the shrunk schedule of seed %d no longer loses or diverges: %s", f.Seed, f.Outcome)
	}
	t.Logf("seed %d: %d operations shrunk to %d: %s\n%sreplay: %s", f.Seed, f.Ops, len(f.Shrunk), f.Outcome, numbered(f.Shrunk), f.Replay)
}

// TestExploreOtherRules reports, without asserting, what the explorer finds
// under the other rule sets and without the power-cut restriction.
func TestExploreOtherRules(t *testing.T) {
	if testing.Short() {
		t.Skip("reporting only")
	}
	n := min(exploreN(), 200)
	if *exploreCount > 0 {
		n = *exploreCount
	}
	for _, cfg := range []explore.ReplicationConfig{
		{Rules: replica.V0_11, MinInsyncReplicas: 2, RestrictPowerCuts: true},
		{Rules: replica.V2_0, MinInsyncReplicas: 2, RestrictPowerCuts: true},
		{Rules: replica.Modern, MinInsyncReplicas: 2},
	} {
		_, failing, violating := sweep(cfg, n, 0)
		t.Logf("%s, restricted power cuts %v: %d of %d schedules lost or diverged (first seeds %v), %d broke an invariant",
			cfg.Rules, cfg.RestrictPowerCuts, len(failing), n, failing[:min(5, len(failing))], len(violating))
	}
}

// TestScheduleIsDeterministic: a seed always draws the same schedule and
// the same outcome.
func TestScheduleIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := explore.Schedule(modernSafe, seed), explore.Schedule(modernSafe, seed)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d drew two different schedules", seed)
		}
		oa, wa, errA := explore.RunSchedule(modernSafe, seed, a)
		ob, wb, errB := explore.RunSchedule(modernSafe, seed, b)
		if errA != nil || errB != nil {
			t.Fatalf("seed %d: %v, %v", seed, errA, errB)
		}
		if oa.String() != ob.String() || !slices.Equal(wa.Events(), wb.Events()) {
			t.Fatalf("seed %d: the same schedule gave two different runs", seed)
		}
	}
}

// TestSweepIsTheSameOnAnyWorkers: a sweep's report does not depend on how
// many goroutines ran it, Progress sees every seed and can stop the
// sweep, and each failure carries its replay command.
func TestSweepIsTheSameOnAnyWorkers(t *testing.T) {
	cfg := v010Safe
	var seen []uint64
	one := explore.Sweep(cfg, explore.SweepOptions{SeedBase: 51, Schedules: 8, Shrink: 1,
		Progress: func(p explore.Progress) bool {
			if p.Shrinking == 0 {
				seen = append(seen, p.Seed)
			}
			return true
		}})
	four := explore.Sweep(cfg, explore.SweepOptions{SeedBase: 51, Schedules: 8, Shrink: 1, Workers: 4})
	if diff := cmp.Diff(one, four); diff != "" {
		t.Errorf("a sweep on one goroutine and on four differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]uint64{51, 52, 53, 54, 55, 56, 57, 58}, seen); diff != "" {
		t.Errorf("seeds seen by Progress (-want +got):\n%s", diff)
	}
	if len(one.Failed) == 0 {
		t.Fatalf("no schedule of seeds 51..58 failed under 0.10's rules: the test checks nothing of the failures")
	}
	for _, f := range one.Failures {
		if want := cfg.ReplayCommand(f.Seed); f.Replay != want {
			t.Errorf("seed %d: replay %q, want %q", f.Seed, f.Replay, want)
		}
	}
	stopped := explore.Sweep(cfg, explore.SweepOptions{SeedBase: 51, Schedules: 6,
		Progress: func(p explore.Progress) bool { return p.Done < 2 }})
	if stopped.Schedules != 2 {
		t.Errorf("Progress returned false after 2 schedules; the sweep ran %d", stopped.Schedules)
	}
}

// TestReplayCommand: the replay line is kafkalive explore with the flags
// of the configuration that differ from the command's defaults.
func TestReplayCommand(t *testing.T) {
	modern, v010 := replica.Modern, replica.V0_10
	for _, tc := range []struct {
		e    explore.Explorer
		want string
	}{
		{modernSafe, "kafkalive explore --mode replication --rules v4 --ops 20 --seed 7 --schedules 1"},
		{explore.ReplicationConfig{Rules: replica.V2_0, MinInsyncReplicas: 1, UncleanLeaderElectionEnable: true, Ops: 9, TickMs: 10},
			"kafkalive explore --mode replication --rules v2.0 --ops 9 --min-isr 1 --unclean --restrict-power-cuts=false --tick 10 --seed 7 --schedules 1"},
		{explore.UserConfig{}, "kafkalive explore --mode users --rules v4 --ops 20 --seed 7 --schedules 1"},
		{explore.UserConfig{Rules: &modern, Ops: 8}, "kafkalive explore --mode users --rules v4 --ops 8 --seed 7 --schedules 1"},
		{explore.UserConfig{Rules: &v010, MaxValueBytes: 1000}, "kafkalive explore --mode users --rules v0.10 --ops 20 --max-value-bytes 1000 --seed 7 --schedules 1"},
	} {
		if diff := cmp.Diff(tc.want, tc.e.ReplayCommand(7)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.e, diff)
		}
	}
}

// numbered prints operations one a line, numbered.
func numbered(ops []string) string {
	var s string
	for i, o := range ops {
		s += fmt.Sprintf("%2d. %s\n", i+1, o)
	}
	return s
}
