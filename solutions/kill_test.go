package solutions

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// killSeed is the rapid seed the kill matrix runs under by default. Any seed
// should kill every mutant; this one makes the verdicts reproducible.
const killSeed = "20261129"

// subject is one implementation of an exercise, seen through its suite.
type subject struct {
	name  string
	check func() error
	props func(*rapid.T)
}

// bank is everything the kill test needs about one exercise.
type bank struct {
	exercise string // "ch01/varint"
	solution subject
	stub     subject
	// stubTest runs the suite's Test entry point on the stub (in a helper process).
	stubTest func(t *testing.T)
	mutants  []subject
}

// banks lists the exercises, in chapter order.
func banks() []bank {
	return []bank{varintBank(), batchBank(), indexBank(), retentionBank(), recoveryBank(), truncationBank(), cooperativeBank()}
}

// stubTODO is what an untouched exercise stub panics with, built here the way
// exercises/todo builds it (the root module cannot import the exercises module).
type stubTODO struct{}

func (stubTODO) NotStarted() bool { return true }

func TestMain(m *testing.M) {
	flag.Parse()
	// Mutants fail on purpose; they must not leave rapid fail files behind.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	// The verdicts must not depend on the run: pin rapid's seed unless one is
	// given (-rapid.seed=N runs the whole matrix under another seed).
	if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() == "0" {
		if err := flag.Set("rapid.seed", killSeed); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

func TestSolutionsPass(t *testing.T) {
	for _, b := range banks() {
		start := time.Now()
		if err := b.solution.check(); err != nil {
			t.Errorf("%s: the suite's fixed cases reject the reference solution:\n%v", b.exercise, err)
		}
		mid := time.Now()
		if rec := kit.Observe("solution-"+b.exercise, b.solution.props); rec.Failed() {
			t.Errorf("%s: the suite's properties reject the reference solution:\n%s", b.exercise, rec.Text())
		}
		t.Logf("%-15s suite on the solution: known answers %v, properties %v", b.exercise,
			mid.Sub(start).Round(time.Millisecond), time.Since(mid).Round(time.Millisecond))
	}
}

func TestStubsFailWithTheirMessage(t *testing.T) {
	for _, b := range banks() {
		err := b.stub.check()
		want := "not started: read notes/"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "exercises/"+b.exercise+"/") {
			t.Errorf("%s: Check on the untouched stub returned %v, want an error starting %q naming exercises/%s/", b.exercise, err, want, b.exercise)
		}
		out, failed := runStubHelper(t, b.exercise)
		if !failed || !strings.Contains(out, err.Error()) || strings.Contains(out, "panic") {
			t.Errorf("%s: the suite's Test on the untouched stub must fail with exactly %q and no panic; it printed:\n%s", b.exercise, err, out)
		}
	}
}

// runStubHelper runs TestStubHelper in a child process for one exercise, since
// the suite's Test entry point fails a real *testing.T.
func runStubHelper(t *testing.T, exercise string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStubHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KIT_STUB_EXERCISE="+exercise)
	out, err := cmd.CombinedOutput()
	return string(out), err != nil
}

func TestStubHelper(t *testing.T) {
	exercise := os.Getenv("KIT_STUB_EXERCISE")
	if exercise == "" {
		t.Skip("helper process for TestStubsFailWithTheirMessage")
	}
	for _, b := range banks() {
		if b.exercise == exercise {
			b.stubTest(t)
		}
	}
}

// verdict is one row of the kill matrix.
type verdict struct {
	exercise, mutant     string
	checkRule, propsRule string // rule IDs that caught it, "-" if it survived
	lookslike            bool   // a failure message recognised the mistake
	took                 time.Duration
}

func TestMutantsAreKilled(t *testing.T) {
	var rows []verdict
	for _, b := range banks() {
		if len(b.mutants) < 8 {
			t.Errorf("%s: the bank holds %d mistakes, want at least 8", b.exercise, len(b.mutants))
		}
		for _, m := range b.mutants {
			rows = append(rows, judge(b.exercise, m))
		}
	}
	survivors := 0
	for _, r := range rows {
		if r.checkRule == "-" || r.propsRule == "-" {
			survivors++
			t.Errorf("%s: mutant %s survived (fixed cases: %s, properties: %s)", r.exercise, r.mutant, r.checkRule, r.propsRule)
		}
	}
	t.Log("\n" + matrix(rows))
	fmt.Println(summary(rows, survivors))
}

func judge(exercise string, m subject) verdict {
	start := time.Now()
	v := verdict{exercise: exercise, mutant: m.name, checkRule: "-", propsRule: "-"}
	if err := m.check(); err != nil {
		if id, _ := kit.RuleIn(err.Error()); id != "" {
			v.checkRule = id
		}
		v.lookslike = strings.Contains(err.Error(), "this looks like")
	}
	rec := kit.Observe("mutant-"+exercise+"-"+m.name, m.props)
	if rec.Failed() {
		if id, _ := kit.RuleIn(rec.Text()); id != "" {
			v.propsRule = id
		} else {
			v.propsRule = "panic"
		}
		v.lookslike = v.lookslike || strings.Contains(rec.Text(), "this looks like")
	}
	v.took = time.Since(start)
	return v
}

func matrix(rows []verdict) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-18s %-26s %-6s %-10s %-10s %s\n", "exercise", "mistake", "check", "properties", "looks like", "time")
	for _, r := range rows {
		looks := "no"
		if r.lookslike {
			looks = "yes"
		}
		fmt.Fprintf(&sb, "%-18s %-26s %-6s %-10s %-10s %v\n", r.exercise, r.mutant, r.checkRule, r.propsRule, looks, r.took.Round(time.Millisecond))
	}
	return sb.String()
}

func summary(rows []verdict, survivors int) string {
	exercises := map[string]int{}
	recognised := 0
	for _, r := range rows {
		exercises[r.exercise]++
		if r.lookslike {
			recognised++
		}
	}
	return fmt.Sprintf("kit kill matrix: %d exercises, %d mistakes, %d survivors, %d recognised by \"this looks like\"",
		len(exercises), len(rows), survivors, recognised)
}
