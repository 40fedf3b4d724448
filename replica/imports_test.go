package replica

import (
	"go/build"
	"testing"
)

// The replica core must stay a pure state machine: no goroutine plumbing, no
// clock, no files or network, no global randomness, and no kafkalog.
func TestImportsStayPure(t *testing.T) {
	forbidden := map[string]bool{
		"os": true, "net": true, "sync": true, "sync/atomic": true, "time": true,
		"math/rand": true, "math/rand/v2": true, "crypto/rand": true, "unsafe": true,
		"github.com/kafkalive/kafkalive/kafkalog": true,
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatalf("reading the package's imports: %v", err)
	}
	if len(pkg.Imports) == 0 {
		t.Fatalf("found no imports at all; the check is reading the wrong directory")
	}
	for _, imp := range pkg.Imports {
		if forbidden[imp] {
			t.Errorf("package replica imports %q; the core must not use goroutines, time, I/O, global randomness or kafkalog", imp)
		}
	}
}
