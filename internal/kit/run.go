package kit

import (
	"fmt"
	"regexp"
	"testing"

	"pgregory.net/rapid"
)

// Suite is one exercise's suite as Run runs it for a learner.
type Suite struct {
	// Exercise is the exercise judged.
	Exercise Exercise
	// Probe calls each function of the learner's code once and returns the
	// error of Exercise.Probe: an untouched stub is "not started".
	Probe func() error
	// Check runs the known answers and returns the first violation, replay
	// being the command that runs them again.
	Check func(replay string) error
	// Props returns the rapid property; replay is the command that runs it
	// again, to which Run adds the seed of a failing run.
	Props func(replay string) func(*rapid.T)
	// PropsName names the property's subtest ("properties", "state_machine").
	PropsName string
}

// Run runs s as subtests of t, the one call a suite's TestX makes: an
// untouched stub fails once with the note to read and the function to write;
// otherwise the known answers run, then, only if they pass, the property. A
// failure is reported once, without a file:line prefix (which would name the
// suite's file, not the learner's): the rule, the smallest case, the note to
// read and the command that replays it, with the seed of a failing random
// run.
//
// skip is the number of frames between the learner's test function and Run
// (1 when TestX calls Run directly): the replay line names the learner's
// package directory.
func Run(t *testing.T, skip int, s Suite) {
	t.Helper()
	dir := CallerDir(skip+1, s.Exercise.Dir)
	if err := s.Probe(); err != nil {
		t.Fatal(err)
	}
	KnownAnswersFirst(t, func(t *testing.T) {
		t.Helper()
		if err := s.Check(Replay(dir, t.Name())); err != nil {
			Report(t, err)
		}
	}, s.PropsName, func(t *testing.T) {
		t.Helper()
		CheckProperty(t, s.Props(Replay(dir, t.Name())))
	})
}

// CheckProperty runs prop with rapid for t and, if it fails, reports the
// suite's failure once: the case rapid shrank to, and a replay line with the
// seed that reproduces it (or the fail file rapid saved). rapid's own
// summary is not printed: it would say the same thing a second time.
func CheckProperty(t *testing.T, prop func(*rapid.T)) {
	t.Helper()
	rec := observe(t.Name(), prop, 0)
	if rec.Skipped() && !rec.Failed() {
		t.Skip(rec.Text())
	}
	if !rec.Failed() {
		return
	}
	f := rec.Failure()
	if f == nil { // a panic in the suite itself, or rapid's own failure: show all
		fmt.Fprintln(t.Output(), rec.Text())
		t.FailNow()
	}
	if seed := reproduceIn(rec.Text()); seed != "" && f.Replay != "" {
		f.Replay += " " + seed
	}
	fmt.Fprintln(t.Output(), f.Error())
	t.FailNow()
}

var reproduceFlag = regexp.MustCompile(`-rapid\.seed=\d+|-rapid\.failfile="[^"]*"`)

// reproduceIn returns the flag of rapid's "To reproduce" line in text: the
// seed when rapid gives one, else its fail file.
func reproduceIn(text string) string {
	all := reproduceFlag.FindAllString(text, -1)
	for _, f := range all {
		if f[len("-rapid."):][0] == 's' {
			return f
		}
	}
	if len(all) > 0 {
		return all[0]
	}
	return ""
}
