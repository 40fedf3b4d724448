package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
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
	events    bool
	// The replication explorer's configuration (ReplicationConfig).
	minISR   int
	unclean  bool
	restrict bool
	tickMs   int64
	// The user-level explorer's (UserConfig).
	maxValueBytes int
	transactions  bool
	mistake       string
}

// exploreProgressEvery is how often a long run prints a progress line.
var exploreProgressEvery = 3 * time.Second

const exploreAbout = `Runs N random schedules with seeds S, S+1, ..., S+N-1 and prints one line:
  schedules N, acknowledged A, lost L, diverged D, violations V, X schedules/min
then, for each failing schedule, its seed, what broke, the schedule shrunk to the
fewest operations that still fail the same way (each shorter schedule replayed and
kept only if it breaks what the drawn one broke first: loses a record, diverges,
breaks the same invariant), and the command that replays it. --events prints the
events of each shrunk run and the state it ended in.

--mode replication (the default) draws fault schedules on one partition with three
replicas: produces with acks=all, runs, crashes, fast restarts, power cuts (torn or
not, only while min.insync.replicas 2 ISR members run, and nothing else until the
controller fences the broker), clean stops, OS writebacks, isolations and heals.
--min-isr, --unclean, --restrict-power-cuts=false and --tick change its cluster.
--mode users draws what users of the page and the terminal do to the default world
(produce any size and key, set-producer, add, remove and crash consumers, stop,
kill, power-cut, start, writeback, cut and heal links, seek, jumps back in time,
clones, resets, long runs, and bad input) and checks invariants after every action;
--transactions adds transactional producers, commits, aborts, zombies,
read_committed consumers and consume-transform-produce copiers to its draws, and
checks exactly once end to end: no input record copied twice in committed output,
and a group offset never ahead of its committed copies. --copier-mistake plants a
mistake those checks must catch: auto-commit (offsets committed outside the
transactions), no-offsets (none committed), read-uncommitted (the copiers' consumers
read aborted records), own-transactional-id (no fencing between two copiers of a
partition).

A progress line goes to stderr every few seconds on long runs.

Exit status: 0 when the run found what the rules promise; 1 when --rules v4
(modern) or v3.7 found a loss, a divergence or a broken invariant, or when --rules v0.10 found no
loss or divergence (KIP-101's truncation to the high watermark must show); other
rule sets only report; 2 for a usage error.`

func runExplore(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("explore")
	var o exploreOptions
	fset.StringVar(&o.rules, "rules", "v4", "the replication rules `R`: v0.10, v0.11, v2.0, v2.1, v3.7 or v4 (modern: Kafka 4.1)")
	fset.StringVar(&o.mode, "mode", "replication", "`MODE`: replication (fault schedules on one partition) or users (the default world, as users drive it)")
	fset.IntVar(&o.schedules, "schedules", 0, "run `N` schedules (default 2000, 100 with --mode users)")
	fset.Uint64Var(&o.seed, "seed", 1, "the first schedule's seed `S`")
	fset.IntVar(&o.ops, "ops", 20, "`K` operations per schedule")
	fset.BoolVar(&o.json, "json", false, "print one JSON object (the same counts, snake_case, and the failures)")
	fset.BoolVar(&o.events, "events", false, "print each shrunk failure's events and the state it ended in (not with --json)")
	fset.IntVar(&o.minISR, "min-isr", 2, "--mode replication: the cluster's min.insync.replicas `N`")
	fset.BoolVar(&o.unclean, "unclean", false, "--mode replication: unclean.leader.election.enable")
	fset.BoolVar(&o.restrict, "restrict-power-cuts", true, "--mode replication: power-cut a broker only while every partition it hosts has min.insync.replicas ISR members running, then wait for its fencing")
	fset.Int64Var(&o.tickMs, "tick", 100, "--mode replication: the world's tick `MS`")
	fset.IntVar(&o.maxValueBytes, "max-value-bytes", 0, "--mode users: cap the values produced at `B` bytes (0: up to 1.2 MB)")
	fset.BoolVar(&o.transactions, "transactions", false, "--mode users: add transactional producers (some sharing a transactional.id: zombies fenced), read_committed consumers and consume-transform-produce copiers, and check that read_committed never hands out an aborted record, misses no committed one, that the last stable offset stays at or below the high watermark, and that each copied record has exactly one committed copy, its group's offset never ahead of them")
	fset.StringVar(&o.mistake, "copier-mistake", "", "--mode users --transactions: plant the mistake `M` in the copiers, which the checks must catch: "+strings.Join(explore.CopierMistakes, ", "))
	u := cli.Usage{Synopsis: "explore [--rules R] [--schedules N] [--seed S] [--ops K] [--mode replication|users] [--json] [--events]", About: exploreAbout}
	if code, ok := u.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	given := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["schedules"] {
		o.schedules = 2000
		if o.mode == "users" {
			o.schedules = 100
		}
	}
	rules, err := replica.ParseRuleSet(o.rules)
	if fset.NArg() > 0 {
		u.Fail(fset, stderr, fmt.Sprintf("unexpected argument %q", fset.Arg(0)))
		return 2
	}
	if msg := exploreMistake(o, given, err); msg != "" {
		u.Fail(fset, stderr, msg)
		return 2
	}
	rep := exploreRun(o, rules, exploreExplorer(o, rules), stderr)
	if o.json {
		b, err := json.Marshal(rep)
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive explore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		rep.print(stdout, o.events)
	}
	return rep.exitCode(rules)
}

// exploreMistake says what is wrong with the flags given, "" if nothing.
func exploreMistake(o exploreOptions, given map[string]bool, rulesErr error) string {
	modeFlags := map[string]string{"min-isr": "replication", "unclean": "replication", "restrict-power-cuts": "replication", "tick": "replication",
		"max-value-bytes": "users", "transactions": "users", "copier-mistake": "users"}
	for _, name := range slices.Sorted(maps.Keys(modeFlags)) {
		if given[name] && o.mode == "replication" != (modeFlags[name] == "replication") {
			return fmt.Sprintf("--%s is a flag of --mode %s", name, modeFlags[name])
		}
	}
	switch {
	case rulesErr != nil:
		return rulesErr.Error()
	case o.mode != "replication" && o.mode != "users":
		return fmt.Sprintf("--mode %q: replication or users", o.mode)
	case o.schedules < 1 || o.schedules > 10_000_000:
		return fmt.Sprintf("--schedules %d: from 1 to 10000000", o.schedules)
	case o.ops < 1 || o.ops > 10_000:
		return fmt.Sprintf("--ops %d: from 1 to 10000", o.ops)
	case o.seed == 0 || o.seed > ^uint64(0)-uint64(o.schedules):
		return fmt.Sprintf("--seed %d: from 1, with room for %d schedules", o.seed, o.schedules)
	case o.minISR < 1 || o.minISR > 3:
		return fmt.Sprintf("--min-isr %d: from 1 to 3 (the partition has three replicas)", o.minISR)
	case o.tickMs < 1 || o.tickMs > 1000:
		return fmt.Sprintf("--tick %d: from 1 to 1000 ms", o.tickMs)
	case o.maxValueBytes < 0:
		return fmt.Sprintf("--max-value-bytes %d: 0 or more", o.maxValueBytes)
	case o.events && o.json:
		return "--events prints text: not with --json"
	case o.mistake != "" && !slices.Contains(explore.CopierMistakes, o.mistake):
		return fmt.Sprintf("--copier-mistake %q: one of %s", o.mistake, strings.Join(explore.CopierMistakes, ", "))
	case o.mistake != "" && !o.transactions:
		return "--copier-mistake plants a mistake in the copiers --transactions draws: give --transactions too"
	}
	return ""
}

// exploreExplorer is the explorer the flags ask for.
func exploreExplorer(o exploreOptions, rules replica.RuleSet) explore.Explorer {
	if o.mode == "users" {
		return explore.UserConfig{Rules: &rules, Ops: o.ops, MaxValueBytes: o.maxValueBytes, Transactions: o.transactions, CopierMistake: o.mistake}
	}
	return explore.ReplicationConfig{Rules: rules, MinInsyncReplicas: o.minISR, UncleanLeaderElectionEnable: o.unclean,
		RestrictPowerCuts: o.restrict, TickMs: o.tickMs, Ops: o.ops}
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

	// explorer is the explorer that ran, for --events' replays.
	explorer explore.Explorer
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

// print writes the report as text: the summary, then each failure shrunk
// (with its events and final state if asked).
func (r exploreReport) print(out io.Writer, events bool) {
	fmt.Fprintln(out, r.summary())
	for _, f := range r.Failures {
		fmt.Fprintf(out, "\nseed %d: %s\n", f.Seed, f.Outcome)
		if f.Ops > len(f.Shrunk) {
			fmt.Fprintf(out, "shrunk from %d to %d operations:\n", f.Ops, len(f.Shrunk))
		}
		for i, op := range f.Shrunk {
			fmt.Fprintf(out, "%3d. %s\n", i+1, op)
		}
		fmt.Fprintf(out, "replay: %s\n", f.Replay)
		if events {
			printReplay(out, r.explorer, f.Seed)
		}
	}
	if n := len(r.FailedSeeds) - len(r.Failures); n > 0 {
		fmt.Fprintf(out, "\nand %d more failing seeds: %s\n", n, seedList(r.FailedSeeds[len(r.Failures):], 30))
	}
}

// printReplay prints the events of seed's shrunk run and the state it
// ended in.
func printReplay(out io.Writer, e explore.Explorer, seed uint64) {
	_, w := e.Replay(seed)
	if w == nil {
		return
	}
	fmt.Fprintln(out, "events:")
	for _, ev := range w.Events() {
		if ev.Kind != cluster.EventMessage {
			fmt.Fprintf(out, "  %s\n", ev)
		}
	}
	fmt.Fprintf(out, "state:\n%s", w.State().Text())
}

// exitCode is 1 when modern rules lost, diverged or broke an invariant,
// or 0.10's rules found no loss or divergence; else 0.
func (r exploreReport) exitCode(rules replica.RuleSet) int {
	switch rules {
	case replica.V3_7, replica.V4:
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

// exploreRun sweeps the seeds on every core, printing progress to stderr
// on long runs, and shrinks the first failures.
func exploreRun(o exploreOptions, rules replica.RuleSet, e explore.Explorer, stderr io.Writer) exploreReport {
	start := time.Now()
	lastLog, ran := start, time.Duration(0)
	progress := func(p explore.Progress) bool {
		now := time.Now()
		if p.Done == p.Schedules && ran == 0 {
			ran = now.Sub(start) // the runs, without the shrinking
		}
		switch {
		case p.Shrinking > 0 && ran > exploreProgressEvery:
			fmt.Fprintf(stderr, "explore: shrinking %d failing schedules\n", p.Shrinking)
		case p.Shrinking == 0 && now.Sub(lastLog) >= exploreProgressEvery:
			lastLog = now
			fmt.Fprintf(stderr, "explore: %d/%d schedules, %d failed, %.0f schedules/min\n",
				p.Done, p.Schedules, p.Failed, float64(p.Done)/now.Sub(start).Minutes())
		}
		return true
	}
	sweep := explore.Sweep(e, explore.SweepOptions{SeedBase: o.seed, Schedules: o.schedules, Workers: runtime.GOMAXPROCS(0),
		Shrink: exploreShrinkMax, Progress: progress})
	rep := exploreReport{Mode: e.Mode(), Rules: rules.String(), Seed: o.seed, Ops: o.ops, Schedules: sweep.Schedules, Acked: sweep.Acked,
		Lost: sweep.Lost, Diverged: sweep.Diverged, Violations: sweep.Violating, FailedSeeds: sweep.FailedSeeds(), Failures: []exploreFailure{},
		PerMin: float64(sweep.Schedules) / max(ran.Minutes(), 1e-9), explorer: e}
	for _, f := range sweep.Failures {
		rep.Failures = append(rep.Failures, exploreFailure{Seed: f.Seed, Outcome: f.Outcome, Ops: f.Ops, Shrunk: f.Shrunk, Replay: f.Replay})
	}
	return rep
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
