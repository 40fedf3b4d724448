package kit

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"pgregory.net/rapid"
)

// Recorder implements rapid.TB and records what a property run reports instead
// of failing a real test. It lets a test run a suite's properties against a
// known-buggy implementation and assert that the run fails.
//
// FailNow, Fatal and Fatalf stop the run by panicking with a private value that
// Observe recovers; rapid calls them only outside the property (after shrinking),
// so they never interfere with rapid's own panic handling.
type Recorder struct {
	name string

	mu      sync.Mutex
	failed  bool
	skipped bool
	out     strings.Builder
	failure *Failure
}

type stopRun struct{}

// ShrinkRuns is how many runs of the property Observe lets rapid spend on
// shrinking a failing case. A count, not a time, so that the case a run
// ends with, and the verdicts read from it, are the same on every machine.
// Most mistakes shrink in a few hundred runs; a long state machine run can
// take rapid tens of thousands, each trying a slightly smaller draw, long
// after the case is small enough to read. 0 means no limit.
var ShrinkRuns = 3000

// Observe runs prop with rapid.Check on a fresh Recorder named name and returns
// the recorder once the run ends. Set the flag -rapid.nofailfile (or
// RAPID_NOFAILFILE=1) in the calling test so that failures write no fail files.
//
// Once prop has failed, rapid shrinks the case; after ShrinkRuns more runs
// Observe turns every further attempt down (as invalid data, which rapid
// never keeps), so that rapid settles on the smallest case it has, and
// reports it as usual.
func Observe(name string, prop func(*rapid.T)) *Recorder {
	return observe(name, prop, ShrinkRuns)
}

// observe is Observe with a shrinking budget of its own (0: rapid's own).
func observe(name string, prop func(*rapid.T), shrinkRuns int) *Recorder {
	r := &Recorder{name: name}
	resetHang()
	defer resetHang()
	// rapid runs a smaller case that fails a second time, to record it (and
	// calls the run flaky if the second run does not fail the same way):
	// that second run, confirming, is always made.
	failed, confirming, runs := false, false, 0
	budgeted := func(t *rapid.T) {
		switch {
		case r.Failed():
			// rapid has reported the failure: this is its replay of the
			// shrunk case, for the output.
		case confirming:
		case failed && shrinkRuns > 0 && runs >= shrinkRuns:
			t.SkipNow()
		case failed:
			runs++
		}
		wasConfirming := confirming
		defer func() {
			confirming = t.Failed() && !wasConfirming
			failed = failed || t.Failed()
		}()
		prop(t)
	}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopRun); !ok {
					panic(v)
				}
			}
		}()
		rapid.Check(r, budgeted)
	}()
	return r
}

// Failure returns the report a suite's property failed with (through Fatal),
// as rapid replayed it after shrinking, or nil.
func (r *Recorder) Failure() *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failure
}

func (r *Recorder) setFailure(f *Failure) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failure = f
}

// Text returns everything the run logged or reported, in order.
func (r *Recorder) Text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

func (r *Recorder) log(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out.WriteString(s)
	r.out.WriteByte('\n')
}

// Output returns a writer whose text is recorded like Log's, without a line
// of its own per write; rapid.T.Output writes to it.
func (r *Recorder) Output() io.Writer { return recorderWriter{r} }

type recorderWriter struct{ r *Recorder }

func (w recorderWriter) Write(p []byte) (int, error) {
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	return w.r.out.Write(p)
}

// Helper does nothing: there are no line numbers to adjust.
func (r *Recorder) Helper() {}

// Name returns the name given to Observe; rapid uses it for fail file names.
func (r *Recorder) Name() string { return r.name }

// Logf records a line.
func (r *Recorder) Logf(format string, args ...any) { r.log(fmt.Sprintf(format, args...)) }

// Log records a line.
func (r *Recorder) Log(args ...any) { r.log(fmt.Sprint(args...)) }

// Skipf records a skip and stops the run.
func (r *Recorder) Skipf(format string, args ...any) { r.Logf(format, args...); r.SkipNow() }

// Skip records a skip and stops the run.
func (r *Recorder) Skip(args ...any) { r.Log(args...); r.SkipNow() }

// SkipNow records a skip and stops the run.
func (r *Recorder) SkipNow() {
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	panic(stopRun{})
}

// Errorf records a failure.
func (r *Recorder) Errorf(format string, args ...any) { r.Logf(format, args...); r.Fail() }

// Error records a failure.
func (r *Recorder) Error(args ...any) { r.Log(args...); r.Fail() }

// Fatalf records a failure and stops the run.
func (r *Recorder) Fatalf(format string, args ...any) { r.Logf(format, args...); r.FailNow() }

// Fatal records a failure and stops the run.
func (r *Recorder) Fatal(args ...any) { r.Log(args...); r.FailNow() }

// FailNow records a failure and stops the run.
func (r *Recorder) FailNow() { r.Fail(); panic(stopRun{}) }

// Fail records a failure.
func (r *Recorder) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}

// Failed reports whether a failure was recorded.
func (r *Recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

// Skipped reports whether the run was skipped.
func (r *Recorder) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skipped
}
