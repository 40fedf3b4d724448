package kit

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// TestObserve fails a property on purpose: no fail files.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		name      string
		want, got []byte
		at        int
	}{
		{"equal", []byte{1, 2}, []byte{1, 2}, -1},
		{"both empty", nil, []byte{}, -1},
		{"second byte", []byte{1, 2, 3}, []byte{1, 9, 3}, 1},
		{"got is short", []byte{1, 2, 3}, []byte{1, 2}, 2},
		{"got is long", []byte{1}, []byte{1, 2}, 1},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.at, FirstDiff(tt.want, tt.got)); diff != "" {
			t.Errorf("%s: FirstDiff (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestHexdumpMarksTheByte(t *testing.T) {
	b := []byte("0123456789abcdefGHIJ")
	want := "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n" +
		"00000010  47 48 49 4a                                       |GHIJ|\n" +
		"                ^^ first wrong byte, position 18"
	if diff := cmp.Diff(want, Hexdump(b, 18)); diff != "" {
		t.Errorf("Hexdump (-want +got):\n%s", diff)
	}
	if got := Hexdump(b, len(b)); !strings.Contains(got, "bytes missing from here, position 20") {
		t.Errorf("a mark at len(b) must say bytes are missing:\n%s", got)
	}
}

func TestHexdumpShowsOnlyLinesNearTheMark(t *testing.T) {
	got := Hexdump(make([]byte, 1000), 500)
	if lines := strings.Count(got, "\n") + 1; lines > 8 {
		t.Errorf("a mark in a 1000-byte dump shows %d lines, want the few around it:\n%s", lines, got)
	}
	if !strings.Contains(got, "000001f0") || !strings.Contains(got, "(1000 bytes in all)") {
		t.Errorf("the dump must show the marked line and say how long the input is:\n%s", got)
	}
}

func TestRuleIn(t *testing.T) {
	f := &Failure{Rule: Rule{ID: "B6", Name: "CRC-32C over [21, end)"}, What: "x"}
	id, name := RuleIn("[rapid] failed: " + f.Error())
	if diff := cmp.Diff([2]string{"B6", "CRC-32C over [21, end)"}, [2]string{id, name}); diff != "" {
		t.Errorf("RuleIn (-want +got):\n%s", diff)
	}
	if id, _ := RuleIn("[rapid] OK, passed 100 tests"); id != "" {
		t.Errorf("RuleIn found rule %q in text without one", id)
	}
}

type marker struct{ started bool }

func (m marker) NotStarted() bool { return !m.started }

func TestProbe(t *testing.T) {
	e := Exercise{Dir: "exercises/ch09/x", File: "x.go", Note: "notes/09.md#x"}
	err := e.Probe(Call{"A", func() {}}, Call{"B", func() { panic(marker{}) }}, Call{"C", func() { panic(marker{}) }})
	want := "not started: read notes/09.md#x, then write B in exercises/ch09/x/x.go"
	if err == nil || err.Error() != want || !errors.Is(err, ErrNotStarted) {
		t.Errorf("Probe = %v, want %q wrapping ErrNotStarted", err, want)
	}
	if err := e.Probe(Call{"A", func() { panic("index out of range") }}, Call{"B", func() { panic(marker{started: true}) }}); err != nil {
		t.Errorf("other panics are the suite's to report, Probe = %v", err)
	}
}

func TestObserveRecordsFailureWithoutFailingTheTest(t *testing.T) {
	rec := Observe("observe-fails", func(t *rapid.T) {
		if v := rapid.IntRange(0, 100).Draw(t, "v"); v > 10 {
			t.Fatalf("[X1 small] %d is too big", v)
		}
	})
	if !rec.Failed() || !strings.Contains(rec.Text(), "[X1 small] 11 is too big") {
		t.Errorf("the recorder must see the shrunk failure (11); it recorded failed=%v:\n%s", rec.Failed(), rec.Text())
	}
	if rec := Observe("observe-passes", func(t *rapid.T) { rapid.Int().Draw(t, "v") }); rec.Failed() {
		t.Errorf("a passing property recorded a failure:\n%s", rec.Text())
	}
}

func TestLooksLike(t *testing.T) {
	ms := []Mistake[int, []byte]{
		{Name: "d", Says: "doubles", Do: func(n int) []byte { return []byte{byte(2 * n)} }},
		{Name: "p", Says: "panics", Do: func(int) []byte { panic("boom") }},
		{Name: "e", Says: "empty", Do: func(int) []byte { return nil }},
	}
	for _, tt := range []struct {
		got  []byte
		want []Match
	}{{[]byte{6}, []Match{{"d", "doubles"}}}, {[]byte{}, []Match{{"e", "empty"}}}, {[]byte{7}, nil}} {
		if diff := cmp.Diff(tt.want, LooksLike(3, tt.got, ms)); diff != "" {
			t.Errorf("LooksLike(3, %v) (-want +got):\n%s", tt.got, diff)
		}
	}
}

func TestReplay(t *testing.T) {
	want := "go test ./exercises/ch01/varint -run '^TestVarint$/^properties$'"
	if got := Replay("./exercises/ch01/varint", "TestVarint/properties"); got != want {
		t.Errorf("Replay = %q, want %q", got, want)
	}
	for text, want := range map[string]string{
		"To reproduce, specify -run=\"x\" -rapid.seed=123":                                 "-rapid.seed=123",
		"specify -run=\"x\" -rapid.failfile=\"testdata/rapid/x.fail\" (or -rapid.seed=77)": "-rapid.seed=77",
		"specify -run=\"x\" -rapid.failfile=\"testdata/rapid/x.fail\"":                     "-rapid.failfile=\"testdata/rapid/x.fail\"",
		"no seed": "",
	} {
		if got := reproduceIn(text); got != want {
			t.Errorf("reproduceIn(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestHintNamesAtMostTwoMistakes(t *testing.T) {
	ms := []Mistake[int, int]{
		{Name: "double", Says: "doubles", Do: func(n int) int { return 2 * n }},
		{Name: "square", Says: "squares", Do: func(n int) int { return n * n }},
		{Name: "square2", Says: "squares", Do: func(n int) int { return n * n }},
		{Name: "plustwo", Says: "adds two", Do: func(n int) int { return n + 2 }},
	}
	for _, tt := range []struct {
		in, got int
		want    []string
	}{
		{3, 6, []string{"doubles"}},
		{3, 9, []string{"squares"}},              // two mistakes, one thing said
		{1, 3, []string{"adds two"}},             // 1+2
		{-1, 1, []string{"squares", "adds two"}}, // two things said: both named
		{2, 4, nil},                              // three things said: not sure, nothing named
		{3, 7, nil},
	} {
		if diff := cmp.Diff(tt.want, Hint(LooksLike(tt.in, tt.got, ms))); diff != "" {
			t.Errorf("Hint(LooksLike(%d, %d)) (-want +got):\n%s", tt.in, tt.got, diff)
		}
	}
}

func TestSignaturesCheckTheProbes(t *testing.T) {
	double := Mistake[int, int]{Name: "double", Says: "doubles", Do: func(n int) int { return 2 * n }}
	square := Mistake[int, int]{Name: "square", Says: "squares", Do: func(n int) int { return n * n }}
	crash := Mistake[int, int]{Name: "crash", Says: "crashes on 0", Do: func(n int) int { return 10 / n }}
	s := NewSignatures(func() []int { return []int{1, 5} }, double, square, crash)
	// On 3 only doubling gives 6, but a learner who adds 3 does not double.
	if got := s.LooksLike(func(n int) int { return n + 3 }, 3, 6); got != nil {
		t.Errorf("a learner who adds 3 matched %v; the probes must rule doubling out", got)
	}
	if diff := cmp.Diff([]Match{{"double", "doubles"}}, s.LooksLike(func(n int) int { return n << 1 }, 3, 6)); diff != "" {
		t.Errorf("a learner who doubles (-want +got):\n%s", diff)
	}
	learner := func(n int) int { return 10 / n }
	if diff := cmp.Diff([]Match{{"crash", "crashes on 0"}}, s.PanicsLike(learner, 0)); diff != "" {
		t.Errorf("a learner who panics on 0 like a known mistake (-want +got):\n%s", diff)
	}
	if got := s.PanicsLike(func(n int) int { panic("no") }, 0); got != nil {
		t.Errorf("a learner who panics everywhere matched %v; the probes must rule every mistake out", got)
	}
}

func TestHintIsPrintedAndReadBack(t *testing.T) {
	for _, ms := range [][]Match{{{"z", "the zigzag step is missing"}}, {{"a", "one way"}, {"b", "another way"}}} {
		f := &Failure{Rule: Rule{ID: "X1", Name: "x"}, What: "w.", Details: []string{"detail"}, Hint: func() []Match { return ms }}
		if diff := cmp.Diff(Hint(ms), LooksLikeIn("--- FAIL\n"+f.Error()+"\nFAIL")); diff != "" {
			t.Errorf("LooksLikeIn(%q) (-want +got):\n%s", f.Error(), diff)
		}
	}
	three := []Match{{"a", "1"}, {"b", "2"}, {"c", "3"}}
	f := &Failure{Rule: Rule{ID: "X1", Name: "x"}, What: "w.", Hint: func() []Match { return three }}
	if got := LooksLikeIn(f.Error()); got != nil || len(f.Matches()) != 3 {
		t.Errorf("three mistakes the cases cannot tell apart must not be named; printed %q", f.Error())
	}
}

func TestGuardGivesUpOnACallThatNeverReturns(t *testing.T) {
	defer func(d time.Duration) { Deadline = d }(Deadline)
	Deadline = 20 * time.Millisecond
	defer resetHang()
	block := make(chan struct{})
	defer close(block) // lets the leaked goroutine end with the test
	if p := Guard(func() { <-block }); !IsTimeout(p) {
		t.Fatalf("Guard on a call that never returns = %v, want TimedOut", p)
	}
	ran := false
	if p := Guard(func() { ran = true }); !IsTimeout(p) || ran {
		t.Errorf("after a timeout Guard must not run more calls in the same check: got %v, ran=%v", p, ran)
	}
	if err := (Exercise{}).Probe(); err != nil {
		t.Fatal(err)
	}
	if p := Guard(func() { panic("boom") }); p != "boom" {
		t.Errorf("after Probe starts a new check, Guard = %v, want the panic value", p)
	}
}

func TestFatalReportsOnceAfterTheSeed(t *testing.T) {
	rec := Observe("fatal-once", func(t *rapid.T) {
		if v := rapid.IntRange(0, 100).Draw(t, "v"); v > 10 {
			Fatal(t, &Failure{Rule: Rule{ID: "X1", Name: "small"}, What: "v must be small.", Details: []string{"the full report"}, Replay: "go test x"})
		}
	})
	out := rec.Text()
	if n := strings.Count(out, "the full report"); n != 1 {
		t.Errorf("the report must appear once, it appears %d times:\n%s", n, out)
	}
	if i, j := strings.Index(out, "To reproduce"), strings.Index(out, "the full report"); i < 0 || j < i {
		t.Errorf("the report must come after rapid's seed line:\n%s", out)
	}
}

func TestFatalRepeatsTheFirstTimeout(t *testing.T) {
	defer func(d time.Duration) { Deadline = d }(Deadline)
	Deadline = 20 * time.Millisecond
	block := make(chan struct{})
	defer close(block)
	first := -1
	rec := Observe("fatal-timeout", func(t *rapid.T) {
		v := rapid.IntRange(0, 100).Draw(t, "v")
		if v > 10 && first < 0 {
			first = v
		}
		if v > 10 && IsTimeout(Guard(func() { <-block })) {
			Fatal(t, Timeout(Rule{ID: "X2", Name: "ends"}, fmt.Sprintf("F(%d)", v), "notes/x.md#every-call-returns"))
		}
	})
	out := rec.Text()
	if !rec.Failed() || !strings.Contains(out, "did not return within") || !strings.Contains(out, "read: notes/x.md#every-call-returns") {
		t.Fatalf("a call that never returns must fail with the termination note:\n%s", out)
	}
	if !strings.Contains(out, fmt.Sprintf("F(%d)", first)) || first != 11 && strings.Contains(out, "F(11)") {
		t.Errorf("the report must name the input that hung, not one rapid shrank to after it:\n%s", out)
	}
}

// A failing property with many draws: Observe's shrinking stops after
// ShrinkRuns runs and still reports the failure it shrank to, with rapid's
// replay of it (never "flaky").
func TestObserveShrinksWithinItsBudget(t *testing.T) {
	defer func(n int) { ShrinkRuns = n }(ShrinkRuns)
	ShrinkRuns = 40
	for _, budget := range []int{40, 0} {
		ShrinkRuns = budget
		runs, failing := 0, false
		rec := Observe("budget", func(t *rapid.T) {
			if failing {
				runs++
			}
			sum := 0
			for i := range 20 {
				sum += rapid.IntRange(0, 1000).Draw(t, fmt.Sprintf("x%d", i))
			}
			if sum > 1500 {
				failing = true
				t.Fatalf("sum %d > 1500", sum)
			}
		})
		text := rec.Text()
		if !rec.Failed() || !strings.Contains(text, "failed after") || strings.Contains(text, "flaky") {
			t.Fatalf("budget %d: want a reported failure, got:\n%s", budget, text)
		}
		if !strings.Contains(text, "Failed test output:") || strings.Count(text, "sum ") < 2 {
			t.Errorf("budget %d: want rapid's replay of the shrunk case after its summary, got:\n%s", budget, text)
		}
		t.Logf("budget %d: %d runs after the first failure", budget, runs)
		// Each counted run may be followed by one confirming run.
		if budget > 0 && runs > 2*budget+2 {
			t.Errorf("budget %d: the property ran %d times after it first failed", budget, runs)
		}
		if budget == 0 && runs <= 2*40+2 {
			t.Errorf("no budget: the property ran only %d times after it first failed; the test no longer shows the budget matters", runs)
		}
	}
}

// TestCheckPropertyReportsOnceWithTheSeed runs a failing property through
// CheckProperty in a child process: the report is printed once, without
// rapid's own summary, and its replay line carries a seed that, passed back,
// fails the same way.
func TestCheckPropertyReportsOnceWithTheSeed(t *testing.T) {
	out := runPropertyHelper(t)
	if n := strings.Count(out, "[X9 small]"); n != 1 {
		t.Errorf("the failure must be printed once, it is printed %d times:\n%s", n, out)
	}
	if strings.Contains(out, "[rapid] failed") || strings.Contains(out, "To reproduce") {
		t.Errorf("rapid's own summary must not be printed beside the report:\n%s", out)
	}
	m := regexp.MustCompile(`replay: go test x -rapid\.seed=(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no replay line with a seed in:\n%s", out)
	}
	again := runPropertyHelper(t, "-rapid.seed="+m[1])
	first := regexp.MustCompile(`\[X9 small\] [^\n]*`)
	if a, b := first.FindString(out), first.FindString(again); a == "" || a != b {
		t.Errorf("replaying seed %s failed with %q, the first run with %q", m[1], b, a)
	}
}

func runPropertyHelper(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestPropertyHelper$", "-test.count=1"}, args...)...)
	cmd.Env = append(os.Environ(), "KIT_PROPERTY_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the failing property passed:\n%s", out)
	}
	return string(out)
}

func TestPropertyHelper(t *testing.T) {
	if os.Getenv("KIT_PROPERTY_HELPER") == "" {
		t.Skip("helper process for TestCheckPropertyReportsOnceWithTheSeed")
	}
	CheckProperty(t, func(rt *rapid.T) {
		if v := rapid.IntRange(0, 1000).Draw(rt, "v"); v > 10 {
			Fatal(rt, &Failure{Rule: Rule{ID: "X9", Name: "small"}, What: fmt.Sprintf("%d must be small.", v), Replay: "go test x"})
		}
	})
}

// Shrink moves to smaller failing cases until none is smaller, whatever rule
// they fail, and leaves a call that did not return as it is.
func TestShrink(t *testing.T) {
	check := func(v int) *Failure {
		switch {
		case v >= 1<<30:
			return &Failure{Rule: Rule{ID: "X1"}, What: fmt.Sprint(v)}
		case v >= 1000:
			return &Failure{Rule: Rule{ID: "X2"}, What: fmt.Sprint(v)}
		}
		return nil
	}
	smaller := func(v int) []int { return []int{v / 2, v - 1} }
	v, f := Shrink(1<<31-1, check(1<<31-1), smaller, check)
	if v != 1000 || f.Rule.ID != "X2" {
		t.Errorf("Shrink from 2^31-1 = %d (%s), want 1000, the smallest failing case (X2)", v, f.Rule.ID)
	}
	hung := &Failure{Rule: Rule{ID: "X1"}, TimedOut: true}
	if v, f := Shrink(5000, hung, smaller, check); v != 5000 || f != hung {
		t.Errorf("a call that did not return must not be shrunk: got %d", v)
	}
}
