package groupkit

import (
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
)

var cooperativeMistakeList = []struct {
	says  string
	knobs stickyKnobs
}{
	{"partitions that move are handed to their new owner at once, while the old owner still consumes them (the sticky target without KIP-429's withholding)", stickyKnobs{handsOutRevoked: true}},
	{"every owned partition is withheld, even from the member that keeps it: that is the eager protocol's stop-the-world, not cooperative", stickyKnobs{revokesEverything: true}},
	{"ownedPartitions are ignored: the assignment is computed afresh, so partitions move that did not need to", stickyKnobs{ignoresOwned: true}},
	{"every member owning maxQuota keeps it, not only P mod N of them, so someone ends up two below", stickyKnobs{maxForAll: true}},
	{"members keep everything they own, past their quota, so newcomers starve and the group stays unbalanced", stickyKnobs{keepsEverything: true}},
	{"members are dealt to in the order they are listed, not sorted by member id, so the same group gives different answers", stickyKnobs{inputOrder: true}},
	{"the kept partitions are not marked taken, so they are dealt out again and a partition gets two owners", stickyKnobs{doubleAssigns: true}},
	{"only members that own something get an entry: a new member is forgotten", stickyKnobs{forgetsNewMembers: true}},
	{"a member that may keep maxQuota keeps only minQuota (yet counts as holding maxQuota): partitions move for nothing, or are dealt to nobody", stickyKnobs{floorOnly: true}},
}

var cooperativeMistakes = func() []kit.Mistake[roundInput, group.Assignment] {
	var ms []kit.Mistake[roundInput, group.Assignment]
	for _, m := range cooperativeMistakeList {
		ms = append(ms, kit.Mistake[roundInput, group.Assignment]{Says: m.says, Do: m.knobs.assign})
	}
	return ms
}()
