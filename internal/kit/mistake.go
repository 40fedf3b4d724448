package kit

import (
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
		if out, ok := try(m.Do, in); ok && cmp.Equal(out, got, cmpopts.EquateEmpty()) {
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
