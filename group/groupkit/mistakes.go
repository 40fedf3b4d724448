package groupkit

import (
	"slices"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// cooperativeSubject is an assignor under judgement, with the known mistakes
// to recognise in it.
type cooperativeSubject struct {
	CooperativeSticky
	mistakes *kit.Signatures[roundInput, group.Assignment]
	inputs   *kit.Signatures[roundInput, roundInput]
	aliases  *kit.Signatures[[2]roundInput, group.Assignment]
}

func judgeCooperative(a CooperativeSticky, known []kit.Known[CooperativeSticky]) cooperativeSubject {
	return cooperativeSubject{CooperativeSticky: a,
		mistakes: kit.NewSignatures(cooperativeProbes, kit.MistakesOf(known, assignOf)...),
		inputs:   kit.NewSignatures(cooperativeProbes, kit.MistakesOf(known, inputAfterOf)...),
		aliases:  kit.NewSignatures(cooperativeAliasProbes, kit.MistakesOf(known, aliasOf)...),
	}
}

// inputAfterOf calls an Assign on in as a caller hands it over and returns
// what the input reads after the call.
func inputAfterOf(a CooperativeSticky) func(roundInput) roundInput {
	return func(in roundInput) roundInput {
		c := in.withSpareCapacity()
		a.Assign(c.members, c.topics)
		return c.clone()
	}
}

// aliasOf runs p[0] then p[1] and returns what p[0]'s assignment reads after.
func aliasOf(a CooperativeSticky) func([2]roundInput) group.Assignment {
	return func(p [2]roundInput) group.Assignment {
		c := p[0].clone()
		first := a.Assign(c.members, c.topics)
		c2 := p[1].clone()
		a.Assign(c2.members, c2.topics)
		return normalize(first)
	}
}

// cooperativeAliasProbes are the known answers' pairs of rebalances.
func cooperativeAliasProbes() [][2]roundInput {
	cases := cooperativeKnownAnswers()
	var out [][2]roundInput
	for i := 1; i < len(cases); i++ {
		out = append(out, [2]roundInput{cases[i-1].in, cases[i].in})
	}
	return out
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
	return func() []kit.Match {
		return a.mistakes.LooksLike(assignOf(a.CooperativeSticky), in, got, a.inputs.Agrees(inputAfterOf(a.CooperativeSticky)), a.aliases.Agrees(aliasOf(a.CooperativeSticky)))
	}
}

// cooperativeProbes are the known answers' inputs, each also listed the other
// way round as the suite checks it: a mistake is named only if it also agrees
// with the learner's code on all of them.
func cooperativeProbes() []roundInput {
	var in []roundInput
	for _, c := range cooperativeKnownAnswers() {
		in = append(in, c.in, c.in.reversed())
	}
	return append(in, kit.Examples(rapid.Custom(drawRoundInput), 60)...)
}

// drawRoundInput draws one rebalance: members (some owning partitions, each
// owned by one member, some of deleted topics or past a topic's partition
// count) and topics, some with no partitions left.
func drawRoundInput(t *rapid.T) roundInput {
	var in roundInput
	for i := range rapid.IntRange(1, 3).Draw(t, "topics") {
		in.topics = append(in.topics, topic(topicNames[i], rapid.Int32Range(0, 7).Draw(t, "partitions")))
	}
	ids := rapid.SliceOfNDistinct(rapid.SampledFrom(memberNames), 1, 5, rapid.ID).Draw(t, "members")
	for _, id := range ids {
		in.members = append(in.members, Member{MemberID: id})
	}
	for _, tp := range allPartitions(append(slices.Clone(in.topics), topic("deleted", 2))) {
		if i := rapid.IntRange(-1, len(ids)-1).Draw(t, "owner"); i >= 0 {
			in.members[i].OwnedPartitions = append(in.members[i].OwnedPartitions, tp)
		}
	}
	return in
}

// smallerRound proposes smaller rebalances than in: a member fewer, an owned
// partition fewer, a topic fewer or with a partition fewer (its partitions
// past the new count no longer owned).
func smallerRound(in roundInput) []roundInput {
	var out []roundInput
	with := func(edit func(r *roundInput)) {
		r := in.clone()
		edit(&r)
		out = append(out, r)
	}
	for i := range in.members {
		if len(in.members) > 1 {
			with(func(r *roundInput) { r.members = slices.Delete(r.members, i, i+1) })
		}
	}
	for i, m := range in.members {
		for j := range m.OwnedPartitions {
			with(func(r *roundInput) {
				r.members[i].OwnedPartitions = slices.Delete(r.members[i].OwnedPartitions, j, j+1)
			})
		}
	}
	for i, t := range in.topics {
		if len(in.topics) > 1 {
			with(func(r *roundInput) { r.topics = slices.Delete(r.topics, i, i+1) })
		}
		if t.Partitions > 0 {
			with(func(r *roundInput) {
				r.topics[i].Partitions--
				for k := range r.members {
					r.members[k].OwnedPartitions = slices.DeleteFunc(r.members[k].OwnedPartitions, func(tp group.TopicPartition) bool {
						return tp.Topic == t.Topic && tp.Partition >= t.Partitions-1
					})
				}
			})
		}
	}
	return out
}
