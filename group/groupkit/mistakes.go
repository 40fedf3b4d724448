package groupkit

import (
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
)

// cooperativeMistakeList names each mistake after its mutant in the bank
// (solutions/ch06/cooperative/mutants/<name>). The mutants themselves cannot
// be the signatures here: they reuse the solution's types, and the solution's
// test imports this package. solutions/signatures_test.go runs each knob
// beside its mutant on random inputs and requires the same answers, and the
// kill matrix (solutions/kill_test.go) fails on a hint that names another
// mistake.
var cooperativeMistakeList = []struct {
	name, says string
	knobs      stickyKnobs
}{
	{"handsoutrevoked", "partitions that move are handed to their new owner at once, while the old owner still consumes them (the sticky target without KIP-429's withholding)", stickyKnobs{handsOutRevoked: true}},
	{"revokeseverything", "every owned partition is withheld, even from the member that keeps it: that is the eager protocol's stop-the-world, not cooperative", stickyKnobs{revokesEverything: true}},
	{"ignoresowned", "ownedPartitions are ignored: the assignment is computed afresh, so partitions move that did not need to", stickyKnobs{ignoresOwned: true}},
	{"maxforall", "every member owning maxQuota keeps it, not only P mod N of them, so someone ends up two below", stickyKnobs{maxForAll: true}},
	{"keepseverything", "members keep everything they own, past their quota, so newcomers starve and the group stays unbalanced", stickyKnobs{keepsEverything: true}},
	{"inputorder", "members are dealt to in the order they are listed, not sorted by member id, so the same group gives different answers", stickyKnobs{inputOrder: true}},
	{"doubleassigns", "the kept partitions are not marked taken, so they are dealt out again and a partition gets two owners", stickyKnobs{doubleAssigns: true}},
	{"forgetsnewmembers", "only members that own something get an entry: a new member is forgotten", stickyKnobs{forgetsNewMembers: true}},
	{"freezesonrevoke", "in a round where someone must revoke, nothing new is handed out, free partitions included; only a partition another member still owns must wait for the follow-up rebalance", stickyKnobs{freezesOnRevoke: true}},
	{"keepsdeleted", "members keep what their subscription says they own without checking it still exists, so a partition of a deleted topic stays assigned and counts toward the quota", stickyKnobs{keepsDeleted: true}},
	{"flooronly", "a member that may keep maxQuota keeps only minQuota (yet counts as holding maxQuota): partitions move for nothing, or are dealt to nobody", stickyKnobs{floorOnly: true}},
}

var cooperativeMistakes = func() *kit.Signatures[roundInput, group.Assignment] {
	var ms []kit.Mistake[roundInput, group.Assignment]
	for _, m := range cooperativeMistakeList {
		ms = append(ms, kit.Mistake[roundInput, group.Assignment]{Name: m.name, Says: m.says, Do: m.knobs.assign})
	}
	return kit.NewSignatures(cooperativeProbes, ms...)
}()

// cooperativeProbes are the known answers' inputs: a mistake is named only if
// it also agrees with the learner's code on all of them.
func cooperativeProbes() []roundInput {
	var in []roundInput
	for _, c := range cooperativeKnownAnswers() {
		in = append(in, c.in)
	}
	return in
}

// CooperativeMistake is one of the suite's re-implementations of a mistake
// of the bank, the signature a learner's failure is compared with.
type CooperativeMistake struct {
	// Name is the mutant's name (solutions/ch06/cooperative/mutants/<Name>).
	Name string
	// Says is the hint a learner reads when their code behaves like it.
	Says string
	// CooperativeSticky computes what code with this mistake returns.
	CooperativeSticky CooperativeSticky
}

// CooperativeMistakes returns the suite's re-implementations of the bank's
// mistakes. The solutions' test runs each beside its mutant on the same
// random groups and requires the same assignments, so that a hint names what
// the learner's code really does.
func CooperativeMistakes() []CooperativeMistake {
	var out []CooperativeMistake
	for _, m := range cooperativeMistakeList {
		k := m.knobs
		out = append(out, CooperativeMistake{Name: m.name, Says: m.says, CooperativeSticky: CooperativeSticky{
			Assign: func(members []Member, topics []group.TopicMetadata) group.Assignment {
				return k.assign(roundInput{members: members, topics: topics}.clone())
			},
		}})
	}
	return out
}
