package cluster_test

import (
	"flag"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	exploreCount = flag.Int("explore.n", 0, "schedules per configuration (default 2000, 300 with -short; the issue's full count is 10000)")
	exploreSeed  = flag.Uint64("explore.seed", 0, "with -run TestExploreReplay: print one schedule's events")
	exploreRules = flag.String("explore.rules", "modern", "with -run TestExploreReplay: the rule set")
)

func exploreN() int {
	switch {
	case *exploreCount > 0:
		return *exploreCount
	case testing.Short():
		return 300
	}
	return 2000
}

// explore runs schedules with seeds 1..n over all CPUs and returns the
// failing seeds, sorted, and the number of acknowledged records checked.
func explore(cfg cluster.ExploreConfig, n int) (failing []uint64, acked int) {
	failing, _, acked = exploreAll(cfg, n)
	return failing, acked
}

// exploreAll is explore that also returns the seeds whose runs broke an
// invariant of the checker.
func exploreAll(cfg cluster.ExploreConfig, n int) (failing, violating []uint64, acked int) {
	// Every schedule builds whole worlds (and kafkalog allocates a 1 MiB
	// recovery buffer per log opened); a larger GC target halves the GC's
	// share of the time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := uint64(0)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				next++
				seed := next
				mu.Unlock()
				if seed > uint64(n) {
					return
				}
				o, _, err := cluster.RunSchedule(cfg, seed, cluster.Schedule(cfg, seed))
				mu.Lock()
				if err != nil || o.Failed() {
					failing = append(failing, seed)
				}
				if len(o.Violations) > 0 {
					violating = append(violating, seed)
				}
				acked += o.Acked
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
		t.Fatalf("with modern rules, %d of %d schedules broke an invariant; seed %d: %v\n"+
			"replay: go test ./cluster -run TestExploreReplay -explore.seed=%d -explore.rules=modern -v", len(violating), n, seed, o.Violations, seed)
	}
	if len(failing) > 0 {
		seed := failing[0]
		ops := cluster.Shrink(modernSafe, seed, cluster.Schedule(modernSafe, seed))
		o, _, _ := cluster.RunSchedule(modernSafe, seed, ops)
		t.Fatalf("with modern rules, acks=all and min.insync.replicas=2, %d of %d schedules lost or diverged; seed %d: %s\n%s"+
			"replay: go test ./cluster -run TestExploreReplay -explore.seed=%d -explore.rules=modern -v",
			len(failing), n, seed, o, cluster.FormatSchedule(ops), seed)
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
	t.Logf("seed %d: %d operations shrunk to %d: %s\n%s"+
		"replay: go test ./cluster -run TestExploreReplay -explore.seed=%d -explore.rules=v0.10 -v",
		seed, len(full), len(ops), o, cluster.FormatSchedule(ops), seed)
}

// TestExploreOtherRules reports, without asserting, what the explorer finds
// under the other rule sets and without the power-cut restriction.
func TestExploreOtherRules(t *testing.T) {
	if testing.Short() {
		t.Skip("reporting only")
	}
	n := min(exploreN(), 1000)
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
// (-explore.seed, -explore.rules).
func TestExploreReplay(t *testing.T) {
	if *exploreSeed == 0 {
		t.Skip("give -explore.seed")
	}
	rules, err := replica.ParseRuleSet(*exploreRules)
	if err != nil {
		t.Fatal(err)
	}
	cfg := modernSafe
	cfg.Rules = rules
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
