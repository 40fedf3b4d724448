package groupkit

import "github.com/kafkalive/kafkalive/group"

// looksLike names the one known mistake that gives got on in and agrees with
// a on every known answer, or returns "": a hint is given only when one
// mistake explains the failure.
func looksLike(a CooperativeSticky, in roundInput, got group.Assignment) func() string {
	return func() string {
		learner := func(in roundInput) group.Assignment {
			got, p := call(a, in)
			if p != nil {
				panic(p)
			}
			return got
		}
		return cooperativeMistakes.LooksLike(learner, in, got)
	}
}
