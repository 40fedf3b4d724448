package replicakit

import (
	"slices"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// truncationSubject is a truncation under judgement, with the known mistakes
// to recognise in it: in a round (TruncationPoint) and in the loop around the
// rounds (Truncate).
type truncationSubject struct {
	Truncation
	points    *kit.Signatures[pointInput, pointOutput]
	truncates *kit.Signatures[truncateInput, truncated]
	aliases   *kit.Signatures[[2]truncateInput, Follower]
}

func judgeTruncation(tr Truncation, known []kit.Known[Truncation]) truncationSubject {
	return truncationSubject{
		Truncation: tr,
		points:     kit.NewSignatures(pointProbes, kit.MistakesOf(known, pointOf)...),
		truncates:  kit.NewSignatures(truncateProbes, kit.MistakesOf(known, truncateOf)...),
		aliases:    kit.NewSignatures(truncateAliasProbes, kit.MistakesOf(known, truncateAliasOf)...),
	}
}

// truncateAliasOf truncates p[0], then p[1], and returns what the follower
// returned for p[0] holds after the second call.
func truncateAliasOf(tr Truncation) func([2]truncateInput) Follower {
	return func(p [2]truncateInput) Follower {
		first := tr.Truncate(cloneFollower(p[0].f), limitedAsk(p[0]))
		tr.Truncate(cloneFollower(p[1].f), limitedAsk(p[1]))
		return cloneFollower(first)
	}
}

// truncateAliasProbes are the known answers' pairs of calls.
func truncateAliasProbes() [][2]truncateInput {
	in := truncateProbes()
	var out [][2]truncateInput
	for i := 1; i < len(in); i++ {
		out = append(out, [2]truncateInput{in[i-1], in[i]})
	}
	return out
}

// pointProbes and truncateProbes are the known answers' inputs: a mistake is
// named only if it also agrees with the learner's code on all of them.
func pointProbes() []pointInput {
	var in []pointInput
	for _, c := range pointKnownAnswers() {
		in = append(in, c.in)
	}
	return append(in, kit.Examples(rapid.Custom(drawRound), 100)...)
}

func truncateProbes() []truncateInput {
	var in []truncateInput
	for _, c := range truncateKnownAnswers() {
		in = append(in, truncateInput{c.follower, c.leader})
	}
	for _, w := range kit.Examples(rapid.Custom(drawWorld), 30) {
		for _, fi := range w.followers() {
			r := w.reps[fi]
			in = append(in, truncateInput{Follower{Epochs: slices.Clone(r.epochs), LogEndOffset: r.leo(), HighWatermark: r.leo() / 2}, w.leaderLog()})
		}
	}
	return in
}
