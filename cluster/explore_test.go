package cluster_test

import (
	"flag"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	exploreCount    = flag.Int("explore.n", 0, "schedules per configuration (default 300, 100 with -short; the other rule sets 200)")
	exploreSeedBase = flag.Uint64("explore.seed-base", 1, "the first seed of the sweeps (seeds seed-base..seed-base+n-1)")
	exploreSeed     = flag.Uint64("explore.seed", 0, "with -run TestExploreReplay: print one schedule's events")
	exploreRules    = flag.String("explore.rules", "modern", "with -run TestExploreReplay: the rule set")
	exploreMinISR   = flag.Int("explore.min-isr", 2, "with -run TestExploreReplay: min.insync.replicas")
	exploreOps      = flag.Int("explore.ops", 0, "with -run TestExploreReplay: operations per schedule (default 20)")
	exploreUnclean  = flag.Bool("explore.unclean", false, "with -run TestExploreReplay: unclean.leader.election.enable")
	exploreRestrict = flag.Bool("explore.restrict", true, "with -run TestExploreReplay: the restricted power-cut fault model")
	exploreTick     = flag.Int64("explore.tick", 0, "with -run TestExploreReplay: the world's tick in ms (default 100)")
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

// explore runs schedules with seeds seed-base.. seed-base+n-1 over all
// CPUs and returns the failing seeds, sorted, and the number of
// acknowledged records checked.
func explore(cfg cluster.ExploreConfig, n int) (failing []uint64, acked int) {
	failing, _, acked = exploreAll(cfg, n)
	return failing, acked
}

// exploreAll is explore that also returns the seeds whose runs broke an
// invariant of the checker. Each worker runs cluster.Explore over one seed
// at a time.
func exploreAll(cfg cluster.ExploreConfig, n int) (failing, violating []uint64, acked int) {
	// Every schedule builds whole worlds (and kafkalog allocates a 1 MiB
	// recovery buffer per log opened); a larger GC target halves the GC's
	// share of the time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := uint64(0)
	base := *exploreSeedBase
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= uint64(n) {
					return
				}
				rep := cluster.Explore(cluster.ExploreOptions{Config: cfg, SeedBase: base + i, Schedules: 1})
				mu.Lock()
				// failing keeps the explorer's older meaning: lost,
				// diverged or an internal error.
				for _, f := range rep.Failures {
					if f.Err != nil || f.Outcome.Failed() {
						failing = append(failing, f.Seed)
					}
					if len(f.Outcome.Violations) > 0 {
						violating = append(violating, f.Seed)
					}
				}
				acked += rep.Acked
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(failing)
	slices.Sort(violating)
	return failing, violating, acked
}

// modernSafe is configuration (a): acks=all, min.insync.replicas=2, clean
// elections, leader epochs (modern rules), restricted power cuts.
var modernSafe = cluster.ExploreConfig{Rules: replica.Modern, MinInsyncReplicas: 2, RestrictPowerCuts: true}

// TestExploreModernLosesNothing is (a): no schedule loses an acknowledged
// record or leaves the replicas diverged.
func TestExploreModernLosesNothing(t *testing.T) {
	n := exploreN()
	start := time.Now()
	failing, violating, acked := exploreAll(modernSafe, n)
	t.Logf("%s, min.insync.replicas 2, restricted power cuts: %d schedules, %d acknowledged records checked, %d failed, %d broke an invariant, in %v",
		modernSafe.Rules, n, acked, len(failing), len(violating), time.Since(start))
	if len(violating) > 0 && len(failing) == 0 {
		seed := violating[0]
		o, _, _ := cluster.RunSchedule(modernSafe, seed, cluster.Schedule(modernSafe, seed))
		t.Fatalf("with modern rules, %d of %d schedules broke an invariant; seed %d: %v\nreplay: %s",
			len(violating), n, seed, o.Violations, cluster.ReplayCommand(modernSafe, seed))
	}
	if len(failing) > 0 {
		seed := failing[0]
		ops := cluster.Shrink(modernSafe, seed, cluster.Schedule(modernSafe, seed))
		o, _, _ := cluster.RunSchedule(modernSafe, seed, ops)
		t.Fatalf("with modern rules, acks=all and min.insync.replicas=2, %d of %d schedules lost or diverged (first seeds %v); seed %d: %s\n%sreplay: %s",
			len(failing), n, failing[:min(10, len(failing))], seed, o, cluster.FormatSchedule(ops), cluster.ReplayCommand(modernSafe, seed))
	}
}

// TestExploreV010FindsLoss is (b): under 0.10 rules the explorer finds a
// lost or diverged record by itself, and prints the shortest schedule.
func TestExploreV010FindsLoss(t *testing.T) {
	cfg := modernSafe
	cfg.Rules = replica.V0_10
	n := exploreN()
	start := time.Now()
	failing, violating, acked := exploreAll(cfg, n)
	t.Logf("%s, same fault model: %d schedules, %d acknowledged records checked, %d lost or diverged, %d broke an invariant, in %v",
		cfg.Rules, n, acked, len(failing), len(violating), time.Since(start))
	if len(failing) == 0 {
		t.Fatalf("under 0.10 rules no schedule of %d lost or diverged a record; the explorer should find KIP-101's truncation to the high watermark", n)
	}
	seed := failing[0]
	full := cluster.Schedule(cfg, seed)
	ops := cluster.Shrink(cfg, seed, full)
	o, _, err := cluster.RunSchedule(cfg, seed, ops)
	if err != nil || !o.Failed() {
		t.Fatalf("the shrunk schedule of seed %d no longer fails (%v, %v)", seed, o, err)
	}
	t.Logf("seed %d: %d operations shrunk to %d: %s\n%sreplay: %s",
		seed, len(full), len(ops), o, cluster.FormatSchedule(ops), cluster.ReplayCommand(cfg, seed))
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
	for _, cfg := range []cluster.ExploreConfig{
		{Rules: replica.V0_11, MinInsyncReplicas: 2, RestrictPowerCuts: true},
		{Rules: replica.V2_0, MinInsyncReplicas: 2, RestrictPowerCuts: true},
		{Rules: replica.Modern, MinInsyncReplicas: 2},
	} {
		failing, violating, _ := exploreAll(cfg, n)
		t.Logf("%s, restricted power cuts %v: %d of %d schedules lost or diverged (first seeds %v), %d broke an invariant",
			cfg.Rules, cfg.RestrictPowerCuts, len(failing), n, failing[:min(5, len(failing))], len(violating))
	}
}

// TestExploreReplay prints one schedule's shrunk form and events
// (-explore.seed, -explore.rules, -explore.min-isr, -explore.ops,
// -explore.unclean, -explore.restrict, -explore.tick: the command
// [cluster.ReplayCommand] prints).
func TestExploreReplay(t *testing.T) {
	if *exploreSeed == 0 {
		t.Skip("give -explore.seed")
	}
	rules, err := replica.ParseRuleSet(*exploreRules)
	if err != nil {
		t.Fatal(err)
	}
	cfg := cluster.ExploreConfig{Rules: rules, MinInsyncReplicas: *exploreMinISR, Ops: *exploreOps,
		UncleanLeaderElectionEnable: *exploreUnclean, RestrictPowerCuts: *exploreRestrict, TickMs: *exploreTick}
	ops := cluster.Schedule(cfg, *exploreSeed)
	if o, _, _ := cluster.RunSchedule(cfg, *exploreSeed, ops); o.Failed() {
		ops = cluster.Shrink(cfg, *exploreSeed, ops)
	}
	o, w, err := cluster.RunSchedule(cfg, *exploreSeed, ops)
	t.Logf("schedule:\n%soutcome: %v (err %v)", cluster.FormatSchedule(ops), o, err)
	for _, e := range w.Events() {
		t.Log(e)
	}
	t.Log("\n" + w.State().Text())
}

// TestScheduleIsDeterministic: a seed always draws the same schedule and
// the same outcome.
func TestScheduleIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := cluster.Schedule(modernSafe, seed), cluster.Schedule(modernSafe, seed)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d drew two different schedules", seed)
		}
		oa, wa, errA := cluster.RunSchedule(modernSafe, seed, a)
		ob, wb, errB := cluster.RunSchedule(modernSafe, seed, b)
		if errA != nil || errB != nil {
			t.Fatalf("seed %d: %v, %v", seed, errA, errB)
		}
		if oa.String() != ob.String() || !slices.Equal(wa.Events(), wb.Events()) {
			t.Fatalf("seed %d: the same schedule gave two different runs", seed)
		}
	}
}

// TestExploreSweepsAdd: a sweep over seeds a..c equals the sum of the
// sweeps over a..b and b+1..c, Progress sees every schedule and can stop
// the sweep, and each failure carries its replay command.
func TestExploreSweepsAdd(t *testing.T) {
	cfg := cluster.ExploreConfig{Rules: replica.V0_10, MinInsyncReplicas: 2, RestrictPowerCuts: true, Ops: 12}
	var seen []uint64
	whole := cluster.Explore(cluster.ExploreOptions{Config: cfg, SeedBase: 41, Schedules: 6,
		Progress: func(p cluster.ExploreProgress) bool { seen = append(seen, p.Seed); return true }})
	a := cluster.Explore(cluster.ExploreOptions{Config: cfg, SeedBase: 41, Schedules: 3})
	b := cluster.Explore(cluster.ExploreOptions{Config: cfg, SeedBase: 44, Schedules: 3})
	sum := a.Add(b)
	sum.Options = whole.Options
	counts := func(r cluster.ExploreReport) []int {
		return []int{r.Schedules, r.Acked, r.Lost, r.Diverged, r.Violating, r.Errors, r.Offline, r.Skipped, len(r.FailedSeeds), len(r.Failures)}
	}
	if diff := cmp.Diff(counts(whole), counts(sum)); diff != "" {
		t.Errorf("a sweep of 6 and two sweeps of 3 differ (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(whole.FailedSeeds, sum.FailedSeeds); diff != "" {
		t.Errorf("failing seeds (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]uint64{41, 42, 43, 44, 45, 46}, seen); diff != "" {
		t.Errorf("seeds seen by Progress (-want +got):\n%s", diff)
	}
	for _, f := range whole.Failures {
		if want := cluster.ReplayCommand(cfg, f.Seed); f.Replay != want || !strings.Contains(want, "-explore.seed=") {
			t.Errorf("seed %d: replay %q, want %q", f.Seed, f.Replay, want)
		}
	}
	stopped := cluster.Explore(cluster.ExploreOptions{Config: cfg, SeedBase: 41, Schedules: 6,
		Progress: func(p cluster.ExploreProgress) bool { return p.Done < 2 }})
	if stopped.Schedules != 2 {
		t.Errorf("Progress returned false after 2 schedules; the sweep ran %d", stopped.Schedules)
	}
}
