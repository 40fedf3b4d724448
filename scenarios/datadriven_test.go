package scenarios

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestStates records, for every scenario, what each step did and the full
// state after it, in testdata/<name>.txt. Regenerate with -rewrite and
// review the diff: the hand-written facts in data/ check a
// subset, these files show everything else.
//
// Commands:
//
//	load NAME [seed=N]   start a run
//	step                 play the next step: events, state, checks
//	done                 the run must have no steps left
func TestStates(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var r *Run
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "load":
				r = loadRun(t, d)
				return ""
			case "step":
				return stepText(t, d, r)
			case "done":
				_, err := r.Next()
				if !errors.Is(err, ErrDone) {
					d.Fatalf(t, "steps are left: add step commands (err %v)", err)
				}
				return "done\n"
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

func loadRun(t *testing.T, d *datadriven.TestData) *Run {
	if len(d.CmdArgs) == 0 {
		d.Fatalf(t, "load needs a scenario name")
	}
	sc, err := Get(d.CmdArgs[0].Key)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	var seed uint64
	d.MaybeScanArgs(t, "seed", &seed)
	r, err := NewRun(sc, seed)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	return r
}

func stepText(t *testing.T, d *datadriven.TestData, r *Run) string {
	if r == nil {
		d.Fatalf(t, "step before load")
	}
	o, err := r.Next()
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	var b strings.Builder
	if o.Branch != nil {
		fmt.Fprintf(&b, "branch %s after step %s: %s\n", o.Branch.Name, o.Branch.After, o.Branch.Overrides)
	}
	fmt.Fprintf(&b, "step %s: %s\n", o.Step.ID, o.Step.Title)
	for _, l := range o.EventLines() {
		fmt.Fprintln(&b, l)
	}
	b.WriteString(r.Scenario().StateText(o.After))
	for _, c := range o.Checks {
		b.WriteString(c.String() + "\n")
	}
	return b.String()
}
