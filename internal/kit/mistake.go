package kit

import (
	"bytes"
	"slices"
	"sync"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Mistake is a known wrong way to write an exercise function, described by what
// it returns. Where the bank holds it as a mutant
// (solutions/chNN/<exercise>/mutants/<Name>), Do is that mutant's own code,
// called through the suite's surface, so that the signature is the mistake
// itself and not a description of it.
type Mistake[In, Out any] struct {
	// Name is the mistake's name in the bank ("forgotzigzag").
	Name string
	// Says is the mistake in a learner's words ("the zigzag step is missing").
	Says string
	// Do returns what code with this mistake returns for in.
	Do func(in In) Out
}

// LooksLike returns the Says of the one mistake whose output for in equals got
// (nil and empty slices are equal), or "" if none or more than one does: a hint
// is given only when the counterexample singles a mistake out. Mistakes that
// say the same thing count as one. A mistake that panics or does not return on
// in does not match.
func LooksLike[In, Out any](in In, got Out, mistakes []Mistake[In, Out]) string {
	says := ""
	for _, m := range mistakes {
		if out, ok := try(m.Do, in); ok && equal(out, got) {
			if says != "" && says != m.Says {
				return ""
			}
			says = m.Says
		}
	}
	return says
}

// Signatures recognises known mistakes by their behaviour. A mistake matches a
// learner's function when it gives the learner's output on the failing input
// and the same outputs as the learner's function on every probe (the suite's
// known answers): a mistake that merely happens to agree on one small case is
// not named. Build it with NewSignatures; its zero value matches nothing.
type Signatures[In, Out any] struct {
	mistakes []Mistake[In, Out]
	probesOf func() []In
	probes   []In

	once sync.Once
	outs [][]outcome[Out] // outs[m][p]: mistake m on probe p
}

type outcome[Out any] struct {
	out Out
	ok  bool // returned (no panic, no timeout)
}

// registry maps a mistake's Says to the bank names that say it, for the kill
// matrix, which reads hints as text.
var registry sync.Map // string -> []string

// NewSignatures returns the signatures of mistakes, checked on the inputs
// probes returns (called once, when a first failure needs a hint; nil for
// none), and records their names so that MistakesSaying can tell which mistake
// a hint names.
func NewSignatures[In, Out any](probes func() []In, mistakes ...Mistake[In, Out]) *Signatures[In, Out] {
	for _, m := range mistakes {
		names, _ := registry.Load(m.Says)
		list, _ := names.([]string)
		if !slices.Contains(list, m.Name) {
			registry.Store(m.Says, append(slices.Clip(list), m.Name))
		}
	}
	return &Signatures[In, Out]{mistakes: mistakes, probesOf: probes}
}

// MistakesSaying returns the names of the mistakes whose Says is says.
func MistakesSaying(says string) []string {
	names, _ := registry.Load(says)
	list, _ := names.([]string)
	return list
}

// Mistakes returns the mistakes s knows.
func (s *Signatures[In, Out]) Mistakes() []Mistake[In, Out] {
	if s == nil {
		return nil
	}
	return s.mistakes
}

// LooksLike returns the Says of the one mistake that gives got on in and agrees
// with learner on every probe, or "". learner is the learner's function seen
// through the same input and output types; nil skips the probes.
func (s *Signatures[In, Out]) LooksLike(learner func(In) Out, in In, got Out) string {
	if s == nil {
		return ""
	}
	var candidates []Mistake[In, Out]
	var idx []int
	for i, m := range s.mistakes {
		if out, ok := try(m.Do, in); ok && equal(out, got) {
			candidates = append(candidates, m)
			idx = append(idx, i)
		}
	}
	if len(candidates) == 0 || learner == nil || s.probesOf == nil {
		return LooksLike(in, got, candidates)
	}
	s.once.Do(func() {
		s.probes = s.probesOf()
		s.outs = make([][]outcome[Out], len(s.mistakes))
		for i, m := range s.mistakes {
			for _, p := range s.probes {
				out, ok := try(m.Do, p)
				s.outs[i] = append(s.outs[i], outcome[Out]{out, ok})
			}
		}
	})
	var agree []Mistake[In, Out]
	mine := make([]outcome[Out], len(s.probes))
	for p, in := range s.probes {
		var out Out
		if Guard(func() { out = learner(in) }) == nil {
			mine[p] = outcome[Out]{out, true}
		}
	}
	for k, m := range candidates {
		same := true
		for p := range s.probes {
			theirs := s.outs[idx[k]][p]
			if theirs.ok != mine[p].ok || theirs.ok && !equal(theirs.out, mine[p].out) {
				same = false
				break
			}
		}
		if same {
			agree = append(agree, m)
		}
	}
	return LooksLike(in, got, agree)
}

func try[In, Out any](do func(In) Out, in In) (Out, bool) {
	var out Out
	if p := within(func() { out = do(in) }, false); p != nil {
		var zero Out // out may still be written by a call that timed out
		return zero, false
	}
	return out, true
}

// equal compares outputs; bytes, the common case, without reflection (rapid
// calls LooksLike on every failing case it tries while shrinking).
func equal[Out any](a, b Out) bool {
	if x, ok := any(a).([]byte); ok {
		return bytes.Equal(x, any(b).([]byte))
	}
	return cmp.Equal(a, b, cmpopts.EquateEmpty())
}
