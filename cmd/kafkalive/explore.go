package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/replica"
)

// explore runs one of the cluster's explorers from any seed: the
// replication explorer (random fault schedules on one partition with
// acks=all, min.insync.replicas 2, clean elections and the restricted
// power cuts) or the user-level one (random sequences of the page's and
// the terminal's actions on the default world). Every outcome is the
// simulation's; the command only counts and prints.

func init() {
	register(command{
		name:    "explore",
		summary: "run random fault schedules (or user-level sequences) against the simulated cluster and report what was lost",
		run:     runExplore,
	})
}

// exploreOptions are explore's flags.
type exploreOptions struct {
	rules     string
	mode      string
	schedules int
	seed      uint64
	ops       int
	json      bool
}

// exploreProgressEvery is how often a long run prints a progress line.
var exploreProgressEvery = 3 * time.Second

const exploreAbout = `Runs N random schedules with seeds S, S+1, ..., S+N-1 and prints one line:
  schedules N, acknowledged A, lost L, diverged D, violations V, X schedules/min
then, for each failing schedule, its seed, what broke, the schedule shrunk to the
fewest operations that still fail, and the command that replays it.

--mode replication (the default) draws fault schedules on one partition with three
replicas: produces with acks=all, runs, crashes, fast restarts, power cuts (torn or
not, only while min.insync.replicas 2 ISR members run, and nothing else until the
controller fences the broker), clean stops, OS writebacks, isolations and heals.
--mode users draws what users of the page and the terminal do to the default world
(produce any size and key, set-producer, add, remove and crash consumers, stop,
kill, power-cut, start, writeback, cut and heal links, seek, jumps back in time,
clones, resets, long runs, and bad input) and checks invariants after every action.

A progress line goes to stderr every few seconds on long runs.

Exit status: 0 when the run found what the rules promise; 1 when --rules modern
found a loss, a divergence or a broken invariant, or when --rules v0.10 found no
loss or divergence (KIP-101's truncation to the high watermark must show); other
rule sets only report; 2 for a usage error.`

func runExplore(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("explore")
	var o exploreOptions
	fset.StringVar(&o.rules, "rules", "modern", "the replication rules `R`: v0.10, v0.11, v2.0, v2.1 or modern")
	fset.StringVar(&o.mode, "mode", "replication", "`MODE`: replication (fault schedules on one partition) or users (the default world, as users drive it)")
	fset.IntVar(&o.schedules, "schedules", 0, "run `N` schedules (default 2000, 100 with --mode users)")
	fset.Uint64Var(&o.seed, "seed", 1, "the first schedule's seed `S`")
	fset.IntVar(&o.ops, "ops", 20, "`K` operations per schedule")
	fset.BoolVar(&o.json, "json", false, "print one JSON object (the same counts, snake_case, and the failures)")
	u := cli.Usage{Synopsis: "explore [--rules R] [--schedules N] [--seed S] [--ops K] [--mode replication|users] [--json]", About: exploreAbout}
	if code, ok := u.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	given := false
	fset.Visit(func(f *flag.Flag) { given = given || f.Name == "schedules" })
	if !given {
		o.schedules = 2000
		if o.mode == "users" {
			o.schedules = 100
		}
	}
	rules, err := replica.ParseRuleSet(o.rules)
	switch {
	case fset.NArg() > 0:
		u.Fail(fset, stderr, fmt.Sprintf("unexpected argument %q", fset.Arg(0)))
		return 2
	case err != nil:
		u.Fail(fset, stderr, err.Error())
		return 2
	case o.mode != "replication" && o.mode != "users":
		u.Fail(fset, stderr, fmt.Sprintf("--mode %q: replication or users", o.mode))
		return 2
	case o.schedules < 1 || o.schedules > 10_000_000:
		u.Fail(fset, stderr, fmt.Sprintf("--schedules %d: from 1 to 10000000", o.schedules))
		return 2
	case o.ops < 1 || o.ops > 10_000:
		u.Fail(fset, stderr, fmt.Sprintf("--ops %d: from 1 to 10000", o.ops))
		return 2
	case o.seed == 0 || o.seed > ^uint64(0)-uint64(o.schedules):
		u.Fail(fset, stderr, fmt.Sprintf("--seed %d: from 1, with room for %d schedules", o.seed, o.schedules))
		return 2
	}
	rep := exploreRun(o, rules, stderr)
	if o.json {
		b, err := json.Marshal(rep)
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive explore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintln(stdout, rep.summary())
		for _, f := range rep.Failures {
			fmt.Fprintf(stdout, "\nseed %d: %s\n", f.Seed, f.Outcome)
			if f.Ops > len(f.Shrunk) {
				fmt.Fprintf(stdout, "shrunk from %d to %d operations:\n", f.Ops, len(f.Shrunk))
			}
			for i, op := range f.Shrunk {
				fmt.Fprintf(stdout, "%3d. %s\n", i+1, op)
			}
			fmt.Fprintf(stdout, "replay: %s\n", f.Replay)
		}
		if n := len(rep.FailedSeeds) - len(rep.Failures); n > 0 {
			fmt.Fprintf(stdout, "\nand %d more failing seeds: %s\n", n, seedList(rep.FailedSeeds[len(rep.Failures):], 30))
		}
	}
	return rep.exitCode(rules)
}

// exploreReport is what explore prints: the counts, and the failures.
type exploreReport struct {
	Mode       string  `json:"mode"`
	Rules      string  `json:"rules"`
	Seed       uint64  `json:"seed"`
	Ops        int     `json:"ops"`
	Schedules  int     `json:"schedules"`
	Acked      int     `json:"acknowledged"`
	Lost       int     `json:"lost"`
	Diverged   int     `json:"diverged"`
	Violations int     `json:"violations"`
	PerMin     float64 `json:"schedules_per_min"`
	// FailedSeeds lists every failing seed; Failures the first few in
	// detail, shrunk.
	FailedSeeds []uint64         `json:"failed_seeds"`
	Failures    []exploreFailure `json:"failures"`
}

// exploreFailure is one failing schedule, shrunk.
type exploreFailure struct {
	Seed    uint64   `json:"seed"`
	Outcome string   `json:"outcome"`
	Ops     int      `json:"ops"`
	Shrunk  []string `json:"shrunk"`
	Replay  string   `json:"replay"`
}

// exploreShrinkMax is how many failures are shrunk and printed in full.
const exploreShrinkMax = 5

func (r exploreReport) summary() string {
	return fmt.Sprintf("schedules %d, acknowledged %d, lost %d, diverged %d, violations %d, %.0f schedules/min",
		r.Schedules, r.Acked, r.Lost, r.Diverged, r.Violations, r.PerMin)
}

// exitCode is 1 when modern rules lost, diverged or broke an invariant,
// or 0.10's rules found no loss or divergence; else 0.
func (r exploreReport) exitCode(rules replica.RuleSet) int {
	switch rules {
	case replica.Modern:
		if len(r.FailedSeeds) > 0 {
			return 1
		}
	case replica.V0_10:
		if r.Lost == 0 && r.Diverged == 0 {
			return 1
		}
	}
	return 0
}

// seedResult is what one schedule did, as explore counts it.
type seedResult struct {
	seed                 uint64
	acked, lost          int
	diverged, violations bool
	failed               bool
}

// exploreRun runs the schedules on every core, prints progress to stderr,
// then shrinks the first failures.
func exploreRun(o exploreOptions, rules replica.RuleSet, stderr io.Writer) exploreReport {
	rep := exploreReport{Mode: o.mode, Rules: rules.String(), Seed: o.seed, Ops: o.ops, FailedSeeds: []uint64{}, Failures: []exploreFailure{}}
	run := exploreSeedFunc(o, rules)
	start := time.Now()
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		next    int
		results []seedResult
		lastLog = start
	)
	for range min(runtime.GOMAXPROCS(0), o.schedules) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= o.schedules {
					return
				}
				res := run(o.seed + uint64(i))
				mu.Lock()
				results = append(results, res)
				if now := time.Now(); now.Sub(lastLog) >= exploreProgressEvery {
					lastLog = now
					failed := 0
					for _, r := range results {
						if r.failed {
							failed++
						}
					}
					fmt.Fprintf(stderr, "explore: %d/%d schedules, %d failed, %.0f schedules/min\n",
						len(results), o.schedules, failed, float64(len(results))/now.Sub(start).Minutes())
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.SortFunc(results, func(a, b seedResult) int {
		if a.seed < b.seed {
			return -1
		}
		if a.seed > b.seed {
			return 1
		}
		return 0
	})
	for _, r := range results {
		rep.Schedules++
		rep.Acked += r.acked
		rep.Lost += r.lost
		if r.diverged {
			rep.Diverged++
		}
		if r.violations {
			rep.Violations++
		}
		if r.failed {
			rep.FailedSeeds = append(rep.FailedSeeds, r.seed)
		}
	}
	rep.PerMin = float64(rep.Schedules) / max(elapsed.Minutes(), 1e-9)
	// Shrink the first failures side by side: each replays its schedule
	// once per operation tried.
	first := rep.FailedSeeds[:min(len(rep.FailedSeeds), exploreShrinkMax)]
	if len(first) > 0 && elapsed > exploreProgressEvery {
		fmt.Fprintf(stderr, "explore: shrinking %d failing schedules\n", len(first))
	}
	rep.Failures = make([]exploreFailure, len(first))
	for i, seed := range first {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep.Failures[i] = exploreShrink(o, rules, seed)
		}()
	}
	wg.Wait()
	return rep
}

// replicationConfig is the replication explorer's configuration: acks=all,
// min.insync.replicas 2, clean elections, the restricted power cuts.
func replicationConfig(o exploreOptions, rules replica.RuleSet) cluster.ExploreConfig {
	return cluster.ExploreConfig{Rules: rules, MinInsyncReplicas: 2, RestrictPowerCuts: true, Ops: o.ops}
}

// usersConfig is the user-level explorer's configuration: the default
// world under the rules asked for.
func usersConfig(o exploreOptions, rules replica.RuleSet) cluster.UserExploreConfig {
	return cluster.UserExploreConfig{Ops: o.ops, NewWorld: func(seed uint64) (*cluster.World, error) {
		w, err := cluster.NewUserWorld(seed)
		if err != nil || rules == replica.Modern {
			return w, err
		}
		cfg := cluster.UserWorldConfig(seed)
		cfg.Rules = rules
		return newWorldFrom(cfg)
	}}
}

// newWorldFrom builds the default world's topics, producers and consumers
// on a world of cfg.
func newWorldFrom(cfg cluster.Config) (*cluster.World, error) {
	w, err := cluster.New(cfg)
	if err != nil {
		return nil, err
	}
	for _, t := range cluster.UserWorldTopics() {
		if err := w.CreateTopic(t); err != nil {
			return nil, err
		}
	}
	for _, p := range cluster.UserWorldProducers() {
		if err := w.AddProducer(p); err != nil {
			return nil, err
		}
	}
	for _, c := range cluster.UserWorldConsumers() {
		if err := w.AddConsumer(c); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// exploreSeedFunc returns the function that runs one seed's schedule.
func exploreSeedFunc(o exploreOptions, rules replica.RuleSet) func(seed uint64) seedResult {
	if o.mode == "users" {
		cfg := usersConfig(o, rules)
		return func(seed uint64) seedResult {
			out, _, err := cluster.RunUserSequence(cfg, seed, cluster.UserSequence(cfg, seed))
			r := seedResult{seed: seed, acked: out.Acked, lost: len(out.Lost), diverged: len(out.Diverged) > 0, failed: err != nil || out.Failed()}
			for _, f := range out.Failures {
				if f.Invariant != "acked-loss" && f.Invariant != "diverged" {
					r.violations = true
				}
			}
			return r
		}
	}
	cfg := replicationConfig(o, rules)
	return func(seed uint64) seedResult {
		out, _, err := cluster.RunSchedule(cfg, seed, cluster.Schedule(cfg, seed))
		return seedResult{seed: seed, acked: out.Acked, lost: len(out.Lost), diverged: len(out.Diverged) > 0,
			violations: len(out.Violations) > 0 || err != nil, failed: err != nil || out.Failed() || len(out.Violations) > 0}
	}
}

// exploreShrink shrinks one failing seed's schedule and describes it.
func exploreShrink(o exploreOptions, rules replica.RuleSet, seed uint64) exploreFailure {
	f := exploreFailure{Seed: seed, Replay: exploreReplay(o, rules, seed)}
	if o.mode == "users" {
		cfg := usersConfig(o, rules)
		full := cluster.UserSequence(cfg, seed)
		ops := cluster.ShrinkUser(cfg, seed, full)
		out, _, err := cluster.RunUserSequence(cfg, seed, ops)
		f.Ops, f.Outcome = len(full), out.String()
		if err != nil {
			f.Outcome += "; " + err.Error()
		}
		for _, op := range ops {
			f.Shrunk = append(f.Shrunk, op.String())
		}
		return f
	}
	cfg := replicationConfig(o, rules)
	full := cluster.Schedule(cfg, seed)
	ops := shrinkSchedule(cfg, seed, full)
	out, _, err := cluster.RunSchedule(cfg, seed, ops)
	f.Ops, f.Outcome = len(full), out.String()
	if err != nil {
		f.Outcome += "; internal error: " + err.Error()
	}
	for _, op := range ops {
		f.Shrunk = append(f.Shrunk, op.String())
	}
	return f
}

// shrinkSchedule removes operations from a failing fault schedule, one at
// a time, while it still loses, diverges, breaks an invariant or hits an
// internal error (cluster.Shrink keeps only losses and divergences).
func shrinkSchedule(cfg cluster.ExploreConfig, seed uint64, ops []cluster.Op) []cluster.Op {
	fails := func(ops []cluster.Op) bool {
		o, _, err := cluster.RunSchedule(cfg, seed, ops)
		return err != nil || o.Failed() || len(o.Violations) > 0
	}
	best := slices.Clone(ops)
	for changed := true; changed; {
		changed = false
		for i := len(best) - 1; i >= 0; i-- {
			if try := slices.Delete(slices.Clone(best), i, i+1); fails(try) {
				best, changed = try, true
			}
		}
	}
	return best
}

// exploreReplay is the command that reruns one seed.
func exploreReplay(o exploreOptions, rules replica.RuleSet, seed uint64) string {
	return fmt.Sprintf("kafkalive explore --mode %s --rules %s --ops %d --seed %d --schedules 1", o.mode, rules, o.ops, seed)
}

// seedList prints at most n seeds.
func seedList(seeds []uint64, n int) string {
	var parts []string
	for _, s := range seeds[:min(len(seeds), n)] {
		parts = append(parts, fmt.Sprint(s))
	}
	if len(seeds) > n {
		parts = append(parts, "...")
	}
	return strings.Join(parts, " ")
}
