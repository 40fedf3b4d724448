package kit

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Known is one mistake of the bank as a suite receives it: an implementation
// of the exercise's surface S that makes the mistake, the mutant's name, what
// it does wrong in a learner's words and the rules it breaks. The suites never
// import the bank: the bank (solutions/bank) builds one Known from each
// solutions/chNN/<exercise>/mutants/<Name>/ directory and hands the list to a
// suite's entry points, which run Impl to recognise the mistake in a
// learner's answers ("this looks like ...").
type Known[S any] struct {
	// Name is the mutant's directory name ("forgotzigzag").
	Name string
	// Says is the mistake in a learner's words, the mutant's "Mistake:" line.
	Says string
	// Breaks are the IDs of the rules the mistake breaks, the mutant's
	// "Breaks:" line: a failure of Impl must name one of them.
	Breaks []string
	// Impl is the mutant's code, in the suite's types.
	Impl S
}

// Mistake is a known wrong way to write an exercise function, described by what
// it returns: a Known seen through one function of the surface.
type Mistake[In, Out any] struct {
	// Name is the mistake's name in the bank ("forgotzigzag").
	Name string
	// Says is the mistake in a learner's words ("the zigzag step is missing").
	Says string
	// Do returns what code with this mistake returns for in.
	Do func(in In) Out
}

// MistakesOf turns known mistakes into mistakes of one function: run calls
// that function of an implementation on one input.
func MistakesOf[S, In, Out any](known []Known[S], run func(S) func(In) Out) []Mistake[In, Out] {
	out := make([]Mistake[In, Out], 0, len(known))
	for _, k := range known {
		out = append(out, Mistake[In, Out]{Name: k.Name, Says: k.Says, Do: run(k.Impl)})
	}
	return out
}

// Match is a known mistake that gives every answer a learner's function gave.
type Match struct {
	// Name is the mistake's name in the bank.
	Name string
	// Says is what it does wrong, in a learner's words.
	Says string
}

// MaxNamed is how many different mistakes a hint may name. When more known
// mistakes than that give all the learner's answers, the cases tried cannot
// tell which one was made, and the failure says nothing.
const MaxNamed = 2

// Hint returns what a failure says the matches are: their Says, each once, in
// order, or nil when there are more than MaxNamed (a hint is given only when
// it is sure, or names the two mistakes it cannot tell apart).
func Hint(matches []Match) []string {
	var says []string
	for _, m := range matches {
		if !slices.Contains(says, m.Says) {
			says = append(says, m.Says)
		}
	}
	if len(says) > MaxNamed {
		return nil
	}
	return says
}

// LooksLike returns the mistakes whose output for in equals got (nil and
// empty slices are equal), in order. A mistake that panics or does not return
// on in does not match.
func LooksLike[In, Out any](in In, got Out, mistakes []Mistake[In, Out]) []Match {
	return matching(mistakes, func(_ int, m Mistake[In, Out]) bool {
		out, ok := try(m.Do, in)
		return ok && equal(out, got)
	})
}

func matching[In, Out any](mistakes []Mistake[In, Out], keep func(int, Mistake[In, Out]) bool) []Match {
	var out []Match
	for i, m := range mistakes {
		if keep(i, m) {
			out = append(out, Match{Name: m.Name, Says: m.Says})
		}
	}
	return out
}

// Signatures recognises known mistakes by their behaviour. A mistake matches a
// learner's function when it does what the learner's function did on the
// failing input (the same output, or no output: a panic, a call that did not
// return) and the same on every probe (the suite's known answers and its
// extreme inputs): a mistake that merely happens to agree on one small case is
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

func (o outcome[Out]) same(p outcome[Out]) bool {
	return o.ok == p.ok && (!o.ok || equal(o.out, p.out))
}

// NewSignatures returns the signatures of mistakes, checked on the inputs
// probes returns (called once, when a first failure needs a hint; nil for
// none).
func NewSignatures[In, Out any](probes func() []In, mistakes ...Mistake[In, Out]) *Signatures[In, Out] {
	return &Signatures[In, Out]{mistakes: mistakes, probesOf: probes}
}

// Mistakes returns the mistakes s knows.
func (s *Signatures[In, Out]) Mistakes() []Mistake[In, Out] {
	if s == nil {
		return nil
	}
	return s.mistakes
}

// LooksLike returns the mistakes that give got on in and agree with learner
// on every probe, in order. learner is the learner's function seen through
// the same input and output types; nil skips the probes. Where the surface
// has other functions, also are their Agrees with the learner's: a mistake
// is named only if it agrees on every function.
func (s *Signatures[In, Out]) LooksLike(learner func(In) Out, in In, got Out, also ...[]bool) []Match {
	return s.like(learner, in, outcome[Out]{got, true}, also)
}

// PanicsLike is LooksLike for a learner's function that did not return on in
// (it panicked, or ran past the deadline): the mistakes that do not return on
// in either, and agree with learner on every probe.
func (s *Signatures[In, Out]) PanicsLike(learner func(In) Out, in In, also ...[]bool) []Match {
	var none Out
	return s.like(learner, in, outcome[Out]{none, false}, also)
}

// Agrees returns, for each mistake in order, whether it gives learner's
// answers on every probe (for LooksLike's also).
func (s *Signatures[In, Out]) Agrees(learner func(In) Out) []bool {
	if s == nil {
		return nil
	}
	agree := make([]bool, len(s.mistakes))
	for i := range agree {
		agree[i] = true
	}
	if learner == nil || s.probesOf == nil {
		return agree
	}
	s.once.Do(s.runProbes)
	mine := make([]outcome[Out], len(s.probes))
	for p, in := range s.probes {
		var out Out
		if Guard(func() { out = learner(in) }) == nil {
			mine[p] = outcome[Out]{out, true}
		}
	}
	for i := range s.mistakes {
		for p := range s.probes {
			agree[i] = agree[i] && s.outs[i][p].same(mine[p])
		}
	}
	return agree
}

func (s *Signatures[In, Out]) like(learner func(In) Out, in In, got outcome[Out], also [][]bool) []Match {
	if s == nil {
		return nil
	}
	matched := make([]bool, len(s.mistakes))
	for i, m := range s.mistakes {
		out, ok := try(m.Do, in)
		matched[i] = got.same(outcome[Out]{out, ok})
		for _, a := range also {
			matched[i] = matched[i] && i < len(a) && a[i]
		}
	}
	if !slices.Contains(matched, true) {
		return nil
	}
	for i, agree := range s.Agrees(learner) {
		matched[i] = matched[i] && agree
	}
	return matching(s.mistakes, func(i int, _ Mistake[In, Out]) bool { return matched[i] })
}

func (s *Signatures[In, Out]) runProbes() {
	s.probes = s.probesOf()
	s.outs = make([][]outcome[Out], len(s.mistakes))
	for i, m := range s.mistakes {
		for _, p := range s.probes {
			out, ok := try(m.Do, p)
			s.outs[i] = append(s.outs[i], outcome[Out]{out, ok})
		}
	}
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

// The lines a failure's hint is printed in (see Failure.Error).
const (
	looksLikeOne = "this looks like: "
	looksLikeTwo = "this looks like one of two known mistakes, which the cases tried cannot tell apart:"
	looksLikeAlt = "  - "
)

// formatHint lays out what the mistakes a failure matches say.
func formatHint(says []string) []string {
	switch len(says) {
	case 0:
		return nil
	case 1:
		return []string{looksLikeOne + says[0]}
	}
	lines := []string{looksLikeTwo}
	for _, s := range says {
		lines = append(lines, looksLikeAlt+s)
	}
	return lines
}

// LooksLikeIn returns what the first hint in text, the output of a failed
// check, says each mistake it names did wrong, or nil if text has no hint.
func LooksLikeIn(text string) []string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if _, says, ok := strings.Cut(line, looksLikeOne); ok {
			return []string{says}
		}
		if !strings.Contains(line, looksLikeTwo) {
			continue
		}
		var says []string
		for _, next := range lines[i+1:] {
			_, s, ok := strings.Cut(next, looksLikeAlt)
			if !ok {
				break
			}
			says = append(says, s)
		}
		return says
	}
	return nil
}
