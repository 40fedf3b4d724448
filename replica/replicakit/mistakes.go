package replicakit

import "github.com/kafkalive/kafkalive/internal/kit"

// truncationSubject is a truncation under judgement, with the known mistakes
// to recognise in it: in a round (TruncationPoint) and in the loop around the
// rounds (Truncate).
type truncationSubject struct {
	Truncation
	points    *kit.Signatures[pointInput, pointOutput]
	truncates *kit.Signatures[truncateInput, Follower]
}

func judgeTruncation(tr Truncation, known []kit.Known[Truncation]) truncationSubject {
	return truncationSubject{
		Truncation: tr,
		points:     kit.NewSignatures(pointProbes, kit.MistakesOf(known, pointOf)...),
		truncates:  kit.NewSignatures(truncateProbes, kit.MistakesOf(known, truncateOf)...),
	}
}

// pointProbes and truncateProbes are the known answers' inputs: a mistake is
// named only if it also agrees with the learner's code on all of them.
func pointProbes() []pointInput {
	var in []pointInput
	for _, c := range pointKnownAnswers() {
		in = append(in, c.in)
	}
	return in
}

func truncateProbes() []truncateInput {
	var in []truncateInput
	for _, c := range truncateKnownAnswers() {
		in = append(in, truncateInput{c.follower, c.leader})
	}
	return in
}
