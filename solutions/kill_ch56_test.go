package solutions

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// The banks of chapters 5 and 6 are proven here with the same judge as the
// others. Once banks() in kill_test.go lists truncationBank() and
// cooperativeBank(), this file can go.

func banks56() []bank {
	return []bank{truncationBank(), cooperativeBank()}
}

func TestSolutionsPass56(t *testing.T) {
	for _, b := range banks56() {
		start := time.Now()
		if err := b.solution.check(); err != nil {
			t.Errorf("%s: the suite's fixed cases reject the reference solution:\n%v", b.exercise, err)
		}
		mid := time.Now()
		if rec := kit.Observe("solution-"+b.exercise, b.solution.props); rec.Failed() {
			t.Errorf("%s: the suite's properties reject the reference solution:\n%s", b.exercise, rec.Output())
		}
		t.Logf("%-18s suite on the solution: known answers %v, properties %v", b.exercise,
			mid.Sub(start).Round(time.Millisecond), time.Since(mid).Round(time.Millisecond))
	}
}

func TestStubsFailWithTheirMessage56(t *testing.T) {
	for _, b := range banks56() {
		err := b.stub.check()
		want := "not started: read notes/"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "exercises/"+b.exercise+"/") {
			t.Errorf("%s: Check on the untouched stub returned %v, want an error starting %q naming exercises/%s/", b.exercise, err, want, b.exercise)
			continue
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestStubHelper56$", "-test.count=1")
		cmd.Env = append(os.Environ(), "KIT_STUB_EXERCISE56="+b.exercise)
		raw, runErr := cmd.CombinedOutput()
		out := string(raw)
		if runErr == nil || !strings.Contains(out, err.Error()) || strings.Contains(out, "panic") {
			t.Errorf("%s: the suite's Test on the untouched stub must fail with exactly %q and no panic; it printed:\n%s", b.exercise, err, out)
		}
	}
}

func TestStubHelper56(t *testing.T) {
	exercise := os.Getenv("KIT_STUB_EXERCISE56")
	if exercise == "" {
		t.Skip("helper process for TestStubsFailWithTheirMessage56")
	}
	for _, b := range banks56() {
		if b.exercise == exercise {
			b.stubTest(t)
		}
	}
}

func TestMutantsAreKilled56(t *testing.T) {
	var rows []verdict
	for _, b := range banks56() {
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
