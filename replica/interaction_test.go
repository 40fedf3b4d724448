package replica_test

import (
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// TestInteraction runs the scenario files in testdata/. Rewrite expected
// output with: go test ./replica -run TestInteraction -rewrite
func TestInteraction(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		env := &replicatest.InteractionEnv{}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return env.Handle(t, d)
		})
	})
}
