package cputime_test

import (
	"runtime"
	"testing"

	"github.com/kafkalive/kafkalive/internal/cputime"
)

// TestNowCountsWork: a busy loop's CPU time shows, and the clock never goes
// back.
func TestNowCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no process CPU time here")
	}
	start := cputime.Now()
	x := 0
	for i := 0; cputime.Now()-start < 20e6 && i < 1e10; i++ {
		x += i
	}
	if got := cputime.Now() - start; got < 20e6 {
		t.Fatalf("CPU time after a busy loop: %v, want at least 20ms (x=%d)", got, x)
	}
}
