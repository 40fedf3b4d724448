package cluster

import (
	"fmt"
	"strings"
)

// ExploreOptions says what [Explore] runs: Schedules random fault
// schedules of Config, with seeds SeedBase, SeedBase+1, ...
type ExploreOptions struct {
	// Config is the configuration every schedule runs against (its Ops is
	// the number of operations per schedule).
	Config ExploreConfig
	// SeedBase is the first seed (0 means 1).
	SeedBase uint64
	// Schedules is the number of schedules to run.
	Schedules int
	// ShrinkFailures is how many failing schedules to shrink ([Shrink]),
	// the first ones found; the others are reported unshrunk. Shrinking
	// replays a schedule once per operation removed, or more.
	ShrinkFailures int
	// MaxFailures bounds the failures reported in detail (default 20);
	// the counts include all of them.
	MaxFailures int
	// Progress, if set, is called after each schedule with the counts so
	// far; returning false stops the sweep there (the report covers the
	// schedules run).
	Progress func(ExploreProgress) bool
}

// ExploreProgress is how far a sweep has gone.
type ExploreProgress struct {
	// Done counts the schedules run so far, of Schedules.
	Done, Schedules int
	// Seed is the seed of the schedule just run.
	Seed uint64
	// Acked counts acknowledged records checked so far.
	Acked int
	// Failed counts schedules that lost or diverged a record, or hit an
	// internal error; Violating those that broke a checker invariant.
	Failed, Violating int
}

// ExploreFailure is one schedule that failed: it lost an acknowledged
// record, left replicas diverged, broke an invariant or hit an internal
// error.
type ExploreFailure struct {
	Seed uint64
	// Schedule is the schedule as drawn; Shrunk the shortest failing one
	// [Shrink] found (nil if it was not shrunk).
	Schedule, Shrunk []Op
	// Outcome is what the schedule (the shrunk one if any) did.
	Outcome Outcome
	// Err is the internal error the schedule hit, if any.
	Err error
	// Replay is the command that replays it and prints its events.
	Replay string
}

// ExploreReport is what a sweep found.
type ExploreReport struct {
	// Options are the options the sweep ran with (defaults filled in).
	Options ExploreOptions
	// Schedules counts the schedules run (fewer than asked if Progress
	// stopped the sweep).
	Schedules int
	// Acked counts acknowledged records checked; Lost those lost.
	Acked, Lost int
	// Diverged counts schedules that left replicas diverged; Violating
	// those that broke a checker invariant; Errors those that hit an
	// internal error; Offline those that ended with the partition offline.
	Diverged, Violating, Errors, Offline int
	// Skipped counts operations that did not apply.
	Skipped int
	// FailedSeeds lists every failing seed, in order.
	FailedSeeds []uint64
	// Failures are the first MaxFailures failures in detail.
	Failures []ExploreFailure
}

// OK reports whether no schedule failed.
func (r ExploreReport) OK() bool { return len(r.FailedSeeds) == 0 }

// String summarises the report on one line.
func (r ExploreReport) String() string {
	c := r.Options.Config.withDefaults()
	first := r.Options.SeedBase
	return fmt.Sprintf("%s, min.insync.replicas %d, unclean %v, restricted power cuts %v, seeds %d..%d (%d ops each): "+
		"%d schedules, %d acknowledged records checked, %d lost, %d schedules diverged, %d broke an invariant, %d internal errors, %d offline",
		c.Rules, c.MinInsyncReplicas, c.UncleanLeaderElectionEnable, c.RestrictPowerCuts, first, first+uint64(max(r.Schedules, 1))-1, c.Ops,
		r.Schedules, r.Acked, r.Lost, r.Diverged, r.Violating, r.Errors, r.Offline)
}

// Failed reports whether the schedule's run counts as a failure in a sweep:
// lost or diverged records, a broken invariant, or an internal error.
func failedRun(o Outcome, err error) bool {
	return err != nil || o.Failed() || len(o.Violations) > 0
}

// Explore runs opts.Schedules schedules, one after another on the calling
// goroutine (a caller that wants several cores runs several sweeps over
// disjoint seed ranges and adds their reports with [ExploreReport.Add]).
func Explore(opts ExploreOptions) ExploreReport {
	if opts.SeedBase == 0 {
		opts.SeedBase = 1
	}
	if opts.MaxFailures == 0 {
		opts.MaxFailures = 20
	}
	opts.Config = opts.Config.withDefaults()
	rep := ExploreReport{Options: opts}
	cfg := opts.Config
	for i := 0; i < opts.Schedules; i++ {
		seed := opts.SeedBase + uint64(i)
		ops := Schedule(cfg, seed)
		o, _, err := RunSchedule(cfg, seed, ops)
		rep.Schedules++
		rep.Acked += o.Acked
		rep.Lost += len(o.Lost)
		rep.Skipped += o.Skipped
		if len(o.Diverged) > 0 {
			rep.Diverged++
		}
		if len(o.Violations) > 0 {
			rep.Violating++
		}
		if err != nil {
			rep.Errors++
		}
		if o.Offline {
			rep.Offline++
		}
		if failedRun(o, err) {
			rep.FailedSeeds = append(rep.FailedSeeds, seed)
			if len(rep.Failures) < opts.MaxFailures {
				f := ExploreFailure{Seed: seed, Schedule: ops, Outcome: o, Err: err, Replay: ReplayCommand(cfg, seed)}
				if len(rep.Failures) < opts.ShrinkFailures {
					f.Shrunk = shrinkWhile(cfg, seed, ops, failedRun)
					f.Outcome, _, f.Err = RunSchedule(cfg, seed, f.Shrunk)
				}
				rep.Failures = append(rep.Failures, f)
			}
		}
		if opts.Progress != nil && !opts.Progress(ExploreProgress{Done: rep.Schedules, Schedules: opts.Schedules, Seed: seed,
			Acked: rep.Acked, Failed: len(rep.FailedSeeds), Violating: rep.Violating}) {
			break
		}
	}
	return rep
}

// Add returns the sum of two reports of the same configuration over
// disjoint seed ranges (r's options are kept; the failures are r's then
// o's, up to r's MaxFailures).
func (r ExploreReport) Add(o ExploreReport) ExploreReport {
	r.Schedules += o.Schedules
	r.Acked += o.Acked
	r.Lost += o.Lost
	r.Diverged += o.Diverged
	r.Violating += o.Violating
	r.Errors += o.Errors
	r.Offline += o.Offline
	r.Skipped += o.Skipped
	r.FailedSeeds = append(append([]uint64(nil), r.FailedSeeds...), o.FailedSeeds...)
	r.Failures = append(append([]ExploreFailure(nil), r.Failures...), o.Failures...)
	if m := r.Options.MaxFailures; m > 0 && len(r.Failures) > m {
		r.Failures = r.Failures[:m]
	}
	return r
}

// ReplayCommand is the command that replays one schedule of cfg and prints
// its shrunk form and events.
func ReplayCommand(cfg ExploreConfig, seed uint64) string {
	cfg = cfg.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "go test ./cluster -run TestExploreReplay -v -explore.seed=%d -explore.rules=%s -explore.min-isr=%d -explore.ops=%d",
		seed, cfg.Rules, cfg.MinInsyncReplicas, cfg.Ops)
	if cfg.UncleanLeaderElectionEnable {
		b.WriteString(" -explore.unclean")
	}
	if !cfg.RestrictPowerCuts {
		b.WriteString(" -explore.restrict=false")
	}
	if cfg.TickMs != 100 {
		fmt.Fprintf(&b, " -explore.tick=%d", cfg.TickMs)
	}
	return b.String()
}

// String prints the failure: its seed, outcome, schedule and replay
// command.
func (f ExploreFailure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: %s", f.Seed, f.Outcome)
	if f.Err != nil {
		fmt.Fprintf(&b, "; internal error: %v", f.Err)
	}
	b.WriteString("\n")
	ops := f.Schedule
	if f.Shrunk != nil {
		fmt.Fprintf(&b, "shrunk from %d to %d operations:\n", len(f.Schedule), len(f.Shrunk))
		ops = f.Shrunk
	}
	b.WriteString(FormatSchedule(ops))
	b.WriteString("replay: " + f.Replay + "\n")
	return b.String()
}
