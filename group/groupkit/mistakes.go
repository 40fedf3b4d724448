package groupkit

import (
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
)

// cooperativeSubject is an assignor under judgement, with the known mistakes
// to recognise in it.
type cooperativeSubject struct {
	CooperativeSticky
	mistakes *kit.Signatures[roundInput, group.Assignment]
}

func judgeCooperative(a CooperativeSticky, known []kit.Known[CooperativeSticky]) cooperativeSubject {
	return cooperativeSubject{CooperativeSticky: a, mistakes: kit.NewSignatures(cooperativeProbes, kit.MistakesOf(known, assignOf)...)}
}

// assignOf calls an Assign on a copy of in and normalizes its answer.
func assignOf(a CooperativeSticky) func(roundInput) group.Assignment {
	return func(in roundInput) group.Assignment {
		c := in.clone()
		return normalize(a.Assign(c.members, c.topics))
	}
}

// looksLike names the known mistakes that give got on in and agree with a on
// every probe.
func looksLike(a cooperativeSubject, in roundInput, got group.Assignment) func() []kit.Match {
	return func() []kit.Match { return a.mistakes.LooksLike(assignOf(a.CooperativeSticky), in, got) }
}

// cooperativeProbes are the known answers' inputs, each also listed the other
// way round as the suite checks it: a mistake is named only if it also agrees
// with the learner's code on all of them.
func cooperativeProbes() []roundInput {
	var in []roundInput
	for _, c := range cooperativeKnownAnswers() {
		in = append(in, c.in, c.in.reversed())
	}
	return in
}
