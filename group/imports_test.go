package group_test

import (
	"go/build"
	"slices"
	"testing"
)

// TestNoClockNoGoroutinesNoGlobalRandomness keeps the package a pure state
// machine: it may not import the OS, the network, locks, the clock or a
// random source (CONTRIBUTING.md, "Layout and boundaries").
func TestNoClockNoGoroutinesNoGlobalRandomness(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatalf("reading the package's imports: %v", err)
	}
	forbidden := []string{"os", "net", "sync", "sync/atomic", "time", "math/rand", "math/rand/v2"}
	for _, imp := range pkg.Imports {
		if slices.Contains(forbidden, imp) {
			t.Errorf("package group imports %q; the coordinator and member must take time and randomness as arguments", imp)
		}
	}
	if len(pkg.Imports) == 0 {
		t.Fatalf("found no imports at all in %s: the check is not looking at the package", pkg.Dir)
	}
}
