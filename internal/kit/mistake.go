package kit

import (
	"bytes"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Mistake is a known wrong way to write an exercise function, described by what
// it would have returned. When a learner's output on a counterexample equals a
// mistake's, the failure says "this looks like" its Says.
type Mistake[In, Out any] struct {
	// Says is the mistake in a learner's words ("the zigzag step is missing").
	Says string
	// Do returns what code with this mistake returns for in.
	Do func(in In) Out
}

// LooksLike returns the Says of the first mistake whose output for in equals
// got (nil and empty slices are equal), or "" if none matches. A mistake that
// panics on in does not match.
func LooksLike[In, Out any](in In, got Out, mistakes []Mistake[In, Out]) string {
	for _, m := range mistakes {
		if out, ok := try(m.Do, in); ok && equal(out, got) {
			return m.Says
		}
	}
	return ""
}

func try[In, Out any](do func(In) Out, in In) (out Out, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return do(in), true
}

// equal compares outputs; bytes, the common case, without reflection (rapid
// calls LooksLike on every failing case it tries while shrinking).
func equal[Out any](a, b Out) bool {
	if x, ok := any(a).([]byte); ok {
		return bytes.Equal(x, any(b).([]byte))
	}
	return cmp.Equal(a, b, cmpopts.EquateEmpty())
}

// Guard calls f and returns the value it panicked with, or nil. Suites call
// the learner's functions through it, so that a panic in the learner's code is
// reported as a failure while a panic in the suite itself stays a crash.
func Guard(f func()) (panicked any) {
	defer func() { panicked = recover() }()
	f()
	return nil
}
