package kit

import (
	"fmt"
	"io"
	"testing"

	"pgregory.net/rapid"
)

// Fatal fails a rapid property with f. The full report is written once, to the
// output of the run rapid replays after shrinking (so it comes after rapid's
// "To reproduce" line, with the seed, and carries no file:line prefix of the
// suite's files); the failure rapid quotes in its summary is only f's first
// line.
//
// A failure for a call that timed out repeats the first such failure of the
// check: once a call has hung, later calls are not made (see Guard), and the
// input worth reporting is the one that really hung, not the smaller ones rapid
// tries after it.
func Fatal(t *rapid.T, f *Failure) {
	if f.TimedOut {
		firstHang.Lock()
		if firstHang.f == nil {
			firstHang.f = f
		}
		f = firstHang.f
		firstHang.Unlock()
	}
	if w := t.Output(); w != io.Discard { // rapid discards the output while it shrinks
		fmt.Fprintln(w, f.Error())
		if rw, ok := w.(recorderWriter); ok {
			rw.r.setFailure(f)
		}
	}
	t.Fatalf("%s", f.Headline())
}

// Report fails t, a suite's known-answer subtest, with err: the report without
// a file:line prefix (which would name the suite's file, not the learner's).
func Report(t *testing.T, err error) {
	t.Helper()
	fmt.Fprintln(t.Output(), err.Error())
	t.FailNow()
}

// KnownAnswersFirst runs the known answers and then, only if they pass, the
// properties, as two subtests of t: a learner reads one failure report, not a
// known answer's and then a property's about the same mistake.
func KnownAnswersFirst(t *testing.T, known func(*testing.T), propsName string, props func(*testing.T)) {
	t.Helper()
	if !t.Run("known_answers", known) {
		t.Run(propsName, func(t *testing.T) {
			t.Skip("skipped until the known answers pass: fix the failure above first")
		})
		return
	}
	t.Run(propsName, props)
}
