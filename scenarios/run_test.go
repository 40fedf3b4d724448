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
