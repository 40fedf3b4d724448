package live

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/scenarios"
)

var printSteps = flag.Bool("print", false, "print every step's outcome of every scenario on the reference")

// Every scenario plays on the reference with its facts holding.
func TestScenariosHoldOnTheReference(t *testing.T) {
	all, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]int{}
	for _, g := range all {
		covered[g.Part]++
	}
	for _, p := range Parts {
		if covered[p] == 0 {
			t.Errorf("part %s has no guided scenario", p)
		}
	}
	if len(covered) != len(Parts) {
		t.Errorf("the scenarios play %d parts, want %d: %v", len(covered), len(Parts), covered)
	}
	for _, g := range all {
		t.Run(g.Name, func(t *testing.T) {
			run, err := scenarios.NewRun(g.On(ReferenceParts()), 0)
			if err != nil {
				t.Fatal(err)
			}
			for {
				o, err := run.Next()
				if err == scenarios.ErrDone {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if *printSteps {
					t.Logf("step %s:\n%s", o.Step.ID, run.Scenario().StateText(o.After))
					for _, e := range o.Events {
						t.Logf("  %s", e.Text)
					}
				}
				for _, c := range o.Failed() {
					t.Errorf("step %s: %s", o.Step.ID, c)
				}
			}
		})
	}
}

// The reference batch encoder around a varint writes the library's bytes when
// the varint is the library's, for a backfill's timestamp deltas too (within an
// int32 and beyond, negative and positive).
func TestAppendBatchWithVarint(t *testing.T) {
	var b kafkalog.RecordBatch
	b.AppendRecord(0, 5, nil, []byte(strings.Repeat("v", 150)))
	b.AppendRecord(1, 9, []byte("k"), nil, kafkalog.Header{Key: []byte("h"), Value: nil})
	b.AppendRecord(2, 5+1<<30, []byte("k"), []byte("12 days later"))
	b.AppendRecord(3, 5-1<<31, []byte("k"), []byte("24.8 days earlier"))
	b.AppendRecord(4, 5+1<<33, []byte("k"), []byte("99 days later"))
	want := b.AppendTo(nil)
	got := appendBatchWithVarint(nil, &b, kafkalog.AppendVarint)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A panicking function, one that never returns and one whose results are out
// of range never stop the world: each fails once, is shown with its input, and
// its part runs the reference from then on.
func TestFaultsFallBackToTheReference(t *testing.T) {
	code := Code{
		Index: kafkalogkit.IndexLookup{
			LookupIndex: func([]byte, int, int64, int64) (int64, int32) { panic("index out of range [3]") },
			FindBatch:   func([]byte, int32, int64) (int32, bool) { return 0, false },
		},
		Recovery: kafkalogkit.Recovery{Recover: func([]byte, int64, int) (int, []byte) {
			select {} // never returns, and burns no CPU while the test goes on
		}},
		Retention: kafkalogkit.Retention{DeletableSegments: func(kafkalogkit.RetentionLog, kafkalogkit.RetentionConfig, int64) int { return -7 }},
	}
	all, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{PartIndex: "panic", PartRecovery: "timeout", PartRetention: "refused"}
	for _, g := range all {
		if want[g.Part] == "" {
			continue
		}
		live := NewWithDeadline(code, 100*time.Millisecond)
		if !live.Runs(g.Part) && g.Part != PartRecovery {
			t.Fatalf("%s: the reference runs before any call", g.Part)
		}
		run, err := scenarios.NewRun(g.On(live.ClusterParts()), 0)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := Outcome(run, live.Faults)
		if err != nil {
			t.Fatalf("%s: the world stopped: %v", g.Name, err)
		}
		if len(outs) != len(g.Steps) {
			t.Errorf("%s: %d steps played, want %d", g.Name, len(outs), len(g.Steps))
		}
		var fs []Fault
		for _, f := range live.Faults() {
			if f.Part == g.Part { // the other parts of code fail too, in their places
				fs = append(fs, f)
			}
		}
		if len(fs) != 1 || fs[0].Kind != want[g.Part] || fs[0].Call == "" {
			t.Errorf("%s: faults %v, want one %s with its input", g.Name, fs, want[g.Part])
		}
		if live.Runs(g.Part) {
			t.Errorf("%s: still runs the learner's code after its fault", g.Name)
		}
		if g.Part == PartIndex && !strings.Contains(fs[0].Stack, "live_test.go") {
			t.Errorf("the panic's stack does not name the learner's code:\n%s", fs[0].Stack)
		}
	}
}

// A stub that panics with TODO runs the reference from the start.
func TestStubsRunTheReference(t *testing.T) {
	live := New(Code{Recovery: kafkalogkit.Recovery{Recover: func([]byte, int64, int) (int, []byte) { panic(todoMarker{}) }}})
	for _, s := range live.Statuses() {
		if s.Runs != Reference {
			t.Errorf("%s runs %s", s.Part, s.Runs)
		}
	}
	if live.ClusterParts().Log.Recover != nil {
		t.Error("a stub's recovery is plugged in")
	}
}

type todoMarker struct{}

func (todoMarker) NotStarted() bool { return true }
