package replicakit

import (
	"slices"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/replica"
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

// smallerPoint proposes smaller rounds than in: an epoch fewer, offsets
// moved down to start at 0, a log end and a high watermark nearer the
// cache's last start.
func smallerPoint(in pointInput) []pointInput {
	var out []pointInput
	with := func(edit func(p *pointInput)) {
		p := pointInput{own: slices.Clone(in.own), leo: in.leo, hw: in.hw, answer: in.answer}
		edit(&p)
		if p.valid() {
			out = append(out, p)
		}
	}
	for i := range in.own {
		// Never to an empty cache: a follower with no epochs asks nothing
		// (Kafka 2.2+), so that round is not one a learner would recognise.
		if len(in.own) > 1 {
			with(func(p *pointInput) { p.own = slices.Delete(p.own, i, i+1) })
		}
	}
	if len(in.own) > 0 && in.own[0].StartOffset > 0 {
		d := in.own[0].StartOffset
		with(func(p *pointInput) {
			for i := range p.own {
				p.own[i].StartOffset -= d
			}
			p.leo -= d
			p.hw = max(p.hw-d, 0)
			if p.answer.EndOffset != replica.UndefinedOffset {
				p.answer.EndOffset = max(p.answer.EndOffset-d, 0)
			}
		})
	}
	if in.hw > 0 {
		with(func(p *pointInput) { p.hw = 0 })
	}
	with(func(p *pointInput) { p.leo--; p.hw = min(p.hw, p.leo) })
	return out
}

// valid reports whether p is a round a follower can ask: a strictly
// increasing cache that starts before its log end, and 0 <= hw <= leo.
func (p pointInput) valid() bool {
	for i, e := range p.own {
		if e.StartOffset < 0 || e.StartOffset >= p.leo || i > 0 && (e.Epoch <= p.own[i-1].Epoch || e.StartOffset <= p.own[i-1].StartOffset) {
			return false
		}
	}
	return p.hw >= 0 && p.hw <= p.leo && p.leo >= 0
}
