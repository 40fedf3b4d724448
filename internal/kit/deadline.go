package kit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Deadline is how long one call of a learner's function may take before the
// suite gives up on it. It is generous: every input the suites give runs in
// well under a millisecond in a right answer, so only a call that never ends
// (a binary search whose bounds stop moving, a walk that does not advance)
// reaches it.
var Deadline = 5 * time.Second

// TimedOut is what Guard returns for a call that did not return within the
// deadline.
type TimedOut struct {
	// After is the deadline that passed.
	After time.Duration
}

func (t TimedOut) String() string {
	return fmt.Sprintf("it did not return within %v (an endless loop?)", t.After)
}

// IsTimeout reports whether p, a value Guard returned, says the call did not
// return in time.
func IsTimeout(p any) bool {
	_, ok := p.(TimedOut)
	return ok
}

// hung is set once a call has timed out: the goroutine it runs in is still
// spinning (Go cannot stop it), so later calls are not made, and each returns
// TimedOut at once. Otherwise rapid, shrinking the failing case, would start
// a new endless goroutine for every smaller input it tries. Probe and Observe,
// which start a check, clear it.
var hung atomic.Bool

// firstHang is the report of the call that timed out first, the one whose
// input is real; later TimedOut failures repeat it (see Fatal).
var firstHang struct {
	sync.Mutex
	f *Failure
}

func resetHang() {
	hung.Store(false)
	firstHang.Lock()
	firstHang.f = nil
	firstHang.Unlock()
}

// Guard calls f and returns the value it panicked with, TimedOut if it did not
// return within Deadline, or nil. Suites call the learner's functions through
// it, so that a panic or an endless loop in the learner's code is reported as a
// failure while a panic in the suite itself stays a crash.
//
// f runs in a goroutine of its own. A call that times out leaves that
// goroutine running (Go cannot stop a goroutine from outside); it leaks until
// the test binary exits, and later calls of Guard in the same check return
// TimedOut without running anything, so that only one leaks.
func Guard(f func()) (panicked any) {
	if hung.Load() {
		return TimedOut{Deadline}
	}
	return within(f, true)
}

// within runs f in a goroutine and waits for it at most Deadline; latch says
// whether a timeout stops later calls (for the learner's code, not for the
// known mistakes, which only ever run to be compared).
func within(f func(), latch bool) any {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	timer := time.NewTimer(Deadline)
	defer timer.Stop()
	select {
	case p := <-done:
		return p
	case <-timer.C:
		if latch {
			hung.Store(true)
		}
		return TimedOut{Deadline}
	}
}

// Recover calls f and returns the value it panicked with, or nil: Guard
// without the goroutine and the deadline, for the suite's own code around
// guarded calls.
func Recover(f func()) (panicked any) {
	defer func() { panicked = recover() }()
	f()
	return nil
}
