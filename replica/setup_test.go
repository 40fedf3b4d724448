package replica

import (
	"errors"
	"testing"
)

// must stops the test when setup fails. (testify's require would do, but its
// yaml dependency has no go.sum entry in this module yet.)
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
}

// mustFailWith stops the test unless err wraps target.
func mustFailWith(t testing.TB, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want %v", what, err, target)
	}
}
