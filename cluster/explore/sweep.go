package explore

import (
	"cmp"
	"slices"
	"sync"

	"github.com/kafkalive/kafkalive/cluster"
)

// An Explorer draws a random sequence of operations from a seed, plays it
// on a world and judges what the world did: [ReplicationConfig] (fault
// schedules on one partition) and [UserConfig] (what the page's users do
// to the world it serves). [Sweep] runs either over a range of seeds.
type Explorer interface {
	// Mode names the explorer as kafkalive explore's --mode does:
	// "replication" or "users".
	Mode() string
	// Run draws seed's sequence, plays it, and says what it did.
	Run(seed uint64) Result
	// Replay draws seed's sequence, plays it and, if it fails, shrinks it
	// ([Shrink], [ShrinkUser]). It returns the failure (Kind "" and the
	// sequence as drawn when it passes) and the world of the last run
	// the failure reports (nil if none could be built).
	Replay(seed uint64) (Failure, *cluster.World)
	// ReplayCommand is the command line that replays seed: kafkalive
	// explore with the flags of this configuration and --schedules 1.
	ReplayCommand(seed uint64) string
}

// Result is what one seed's sequence did, as a sweep counts it.
type Result struct {
	Seed uint64
	// Acked counts the acknowledged records checked; Lost those lost.
	Acked, Lost int
	// Diverged: replicas were left unlike their leader below the high
	// watermark. Offline: the partition ended without a leader (fault
	// schedules only).
	Diverged, Offline bool
	// Violating: the run broke an invariant other than loss and
	// divergence (the world's checker, liveness, the clock...) or could
	// not go on; Errored: it could not go on (an internal error, a
	// refused action).
	Violating, Errored bool
	// Skipped counts operations that did not apply.
	Skipped int
	// Kind is how it failed ([Outcome.Kind], [UserOutcome.Kind]), "" if
	// it did not.
	Kind string
}

// Failed reports whether the run failed.
func (r Result) Failed() bool { return r.Kind != "" }

// Failure is one failing seed, replayed and shrunk.
type Failure struct {
	Seed uint64
	// Kind is how it failed; the shrunk sequence fails the same way.
	Kind string
	// Ops counts the operations of the sequence as drawn.
	Ops int
	// Shrunk prints the operations of the shortest sequence that still
	// fails the same way, one a line (the sequence as drawn when it
	// passes).
	Shrunk []string
	// Outcome is what the run of Shrunk did, as its outcome prints it,
	// with the error it returned if any.
	Outcome string
	// Replay is the command that replays it ([Explorer.ReplayCommand]).
	Replay string
}

// SweepOptions say which seeds a [Sweep] runs, on how many goroutines,
// and what it reports.
type SweepOptions struct {
	// SeedBase is the first seed (0 means 1); Schedules the number of
	// seeds: SeedBase, SeedBase+1, ..., SeedBase+Schedules-1.
	SeedBase  uint64
	Schedules int
	// Workers is the number of goroutines that run seeds side by side
	// (0 means 1); each run is a world of its own.
	Workers int
	// Shrink is how many failing seeds, the first ones, are replayed and
	// shrunk into Report.Failures (each replays its sequence once per
	// operation tried).
	Shrink int
	// Progress, if set, is called after each seed with the counts so far
	// (one call at a time), and once more with Shrinking set before the
	// failures are shrunk; returning false stops the sweep there (the
	// report covers the seeds run).
	Progress func(Progress) bool
}

// Progress is how far a sweep has gone.
type Progress struct {
	// Done counts the seeds run, of Schedules; Seed is the one just run.
	Done, Schedules int
	Seed            uint64
	// Acked counts the acknowledged records checked so far; Failed the
	// seeds that failed, Violating those that broke an invariant other
	// than loss and divergence.
	Acked, Failed, Violating int
	// Shrinking, when above 0, says that the seeds have all run and that
	// this many failures are being shrunk.
	Shrinking int
}

// Report is what a sweep found.
type Report struct {
	// Schedules counts the seeds run (fewer than asked if Progress
	// stopped the sweep).
	Schedules int
	// Acked counts the acknowledged records checked; Lost those lost.
	Acked, Lost int
	// Diverged, Violating, Errors and Offline count the seeds whose run
	// was so ([Result]); Skipped the operations that did not apply.
	Diverged, Violating, Errors, Offline, Skipped int
	// Failed lists the result of every failing seed, by seed.
	Failed []Result
	// Failures are the first SweepOptions.Shrink failing seeds, replayed
	// and shrunk, by seed.
	Failures []Failure
}

// FailedSeeds lists every failing seed, in order.
func (r Report) FailedSeeds() []uint64 {
	seeds := make([]uint64, len(r.Failed))
	for i, f := range r.Failed {
		seeds[i] = f.Seed
	}
	return seeds
}

// Sweep runs e's sequences of opts' seeds on opts.Workers goroutines,
// counts what they did, then replays and shrinks the first failures.
// The report is the same whatever the number of workers.
func Sweep(e Explorer, opts SweepOptions) Report {
	if opts.SeedBase == 0 {
		opts.SeedBase = 1
	}
	results := runSeeds(e, opts)
	var rep Report
	for _, r := range results {
		rep.add(r)
	}
	first := rep.Failed[:min(len(rep.Failed), opts.Shrink)]
	if len(first) > 0 && opts.Progress != nil {
		opts.Progress(Progress{Done: rep.Schedules, Schedules: opts.Schedules, Acked: rep.Acked,
			Failed: len(rep.Failed), Violating: rep.Violating, Shrinking: len(first)})
	}
	rep.Failures = make([]Failure, len(first))
	forEach(len(first), opts.Workers, func(i int) bool {
		rep.Failures[i], _ = e.Replay(first[i].Seed)
		return true
	})
	return rep
}

// runSeeds runs the seeds of opts and returns their results by seed.
func runSeeds(e Explorer, opts SweepOptions) []Result {
	var (
		mu      sync.Mutex
		results []Result
		sofar   Report
	)
	forEach(opts.Schedules, opts.Workers, func(i int) bool {
		r := e.Run(opts.SeedBase + uint64(i))
		mu.Lock()
		defer mu.Unlock()
		results = append(results, r)
		sofar.add(r)
		return opts.Progress == nil || opts.Progress(Progress{Done: sofar.Schedules, Schedules: opts.Schedules, Seed: r.Seed,
			Acked: sofar.Acked, Failed: len(sofar.Failed), Violating: sofar.Violating})
	})
	slices.SortFunc(results, func(a, b Result) int { return cmp.Compare(a.Seed, b.Seed) })
	return results
}

// add counts one seed's result.
func (r *Report) add(x Result) {
	r.Schedules++
	r.Acked += x.Acked
	r.Lost += x.Lost
	r.Skipped += x.Skipped
	r.Diverged += count(x.Diverged)
	r.Violating += count(x.Violating)
	r.Errors += count(x.Errored)
	r.Offline += count(x.Offline)
	if x.Failed() {
		r.Failed = append(r.Failed, x)
	}
}

// count is 1 for true.
func count(b bool) int {
	if b {
		return 1
	}
	return 0
}

// forEach calls fn(0), ..., fn(n-1) on workers goroutines (at least one),
// each index once, until fn returns false (the calls under way finish).
func forEach(n, workers int, fn func(i int) bool) {
	var (
		mu      sync.Mutex
		next    int
		stopped bool
		wg      sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopped || next >= n {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range min(max(workers, 1), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ok := take(); ok; i, ok = take() {
				if !fn(i) {
					mu.Lock()
					stopped = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}
