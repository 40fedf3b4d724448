package replica_test

import (
	"path/filepath"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// TestInteraction runs the scenario files testdata/*.txt (rapid keeps its
// failure files under testdata/rapid, which this skips). Rewrite the
// expected output with: go test ./replica -run TestInteraction -rewrite
func TestInteraction(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenario files in testdata (err %v)", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			env := &replicatest.InteractionEnv{}
			datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
				return env.Handle(t, d)
			})
		})
	}
}
