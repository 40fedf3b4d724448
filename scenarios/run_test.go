package scenarios

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEveryScenario plays every embedded scenario and fails on any fact
// the simulation does not reach (and on any known divergence that no
// longer happens).
func TestEveryScenario(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			r, err := NewRun(sc, 0)
			require.NoError(t, err)
			for {
				o, err := r.Next()
				if errors.Is(err, ErrDone) {
					return
				}
				require.NoError(t, err)
				for _, c := range o.Failed() {
					t.Errorf("%s step %s%s (data/%s line %d):\n%s\nreplay: go test ./scenarios -run 'TestEveryScenario/%s$'",
						sc.Name, branchPrefix(o.InBranch), o.Step.ID, sc.File, o.Step.Line, c, sc.Name)
				}
			}
		})
	}
}

func branchPrefix(b string) string {
	if b == "" {
		return ""
	}
	return b + "/"
}

// TestScenariosDoNotDependOnTheSeed plays every scenario with other seeds:
// the expected facts must not hinge on the world's random generator (it
// only drives the sticky partitioner and torn writes, which no scenario
// uses).
func TestScenariosDoNotDependOnTheSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every scenario twice more")
	}
	all, err := All()
	require.NoError(t, err)
	for _, seed := range []uint64{2, 20260101} {
		for _, sc := range all {
			r, err := NewRun(sc, seed)
			require.NoError(t, err)
			for {
				o, err := r.Next()
				if errors.Is(err, ErrDone) {
					break
				}
				require.NoError(t, err)
				for _, c := range o.Failed() {
					t.Errorf("seed %d: %s step %s: %s\nreplay: go run ./cmd/kafkalive play %s --auto --seed %d", seed, sc.Name, o.Step.ID, c, sc.Name, seed)
				}
			}
		}
	}
}

// TestGroupScenariosAskAtEveryStep: the consumer-group and log scenarios
// ask a question with choices at every step.
func TestGroupScenariosAskAtEveryStep(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	n := 0
	for _, sc := range all {
		if sc.Group != "consumers" && sc.Group != "keys" {
			continue
		}
		steps := sc.Steps
		for _, b := range sc.Branches {
			steps = append(steps[:len(steps):len(steps)], b.Steps...)
		}
		for _, s := range steps {
			n++
			if s.Question == nil {
				t.Errorf("%s step %s (data/%s line %d) asks nothing", sc.Name, s.ID, sc.File, s.Line)
			}
		}
	}
	require.Equal(t, 31, n, "steps in the consumer-group and keys scenarios")
}
