package groupkit

import (
	"cmp"
	"slices"

	"github.com/kafkalive/kafkalive/group"
)

// stickyKnobs turn the suite's model of the constrained sticky assignment
// (AbstractStickyAssignor with identical subscriptions, then KIP-429's
// withholding) into each mistake of the bank. The zero value is Kafka.
type stickyKnobs struct {
	handsOutRevoked, revokesEverything, ignoresOwned, keepsEverything  bool
	inputOrder, doubleAssigns, forgetsNewMembers, floorOnly, maxForAll bool
	freezesOnRevoke, keepsDeleted                                      bool
}

// assign runs the model on in.
func (k stickyKnobs) assign(in roundInput) group.Assignment {
	ms := slices.Clone(in.members)
	if !k.inputOrder {
		slices.SortStableFunc(ms, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	}
	own := owners(in)
	keepable := own
	if k.ignoresOwned {
		keepable = map[group.TopicPartition]string{}
	}
	if k.forgetsNewMembers {
		ms = slices.DeleteFunc(ms, func(m Member) bool { return len(ownedBy(own, m.MemberID)) == 0 })
	}
	all := allPartitions(in.topics)
	out := group.Assignment{}
	if len(ms) == 0 {
		return out
	}
	n := len(ms)
	minQ, maxQ, expectedMax := len(all)/n, (len(all)+n-1)/n, len(all)%n
	numMax := 0
	var underMin, atMin []string
	for _, m := range ms {
		owned := ownedBy(keepable, m.MemberID)
		if k.keepsDeleted {
			owned = sortedCopy(m.OwnedPartitions) // as listed, deleted topics included
		}
		id := m.MemberID
		switch {
		case len(owned) < minQ:
			out[id] = owned
			underMin = append(underMin, id)
		case len(owned) >= maxQ && (numMax < expectedMax || k.maxForAll):
			out[id] = owned[:maxQ]
			if k.floorOnly {
				out[id] = owned[:minQ]
			}
			numMax++
			if numMax == expectedMax {
				atMin = nil
			}
		default:
			out[id] = owned[:minQ]
			if numMax < expectedMax {
				atMin = append(atMin, id)
			}
		}
		if k.keepsEverything {
			out[id] = owned
		}
		out[id] = append([]group.TopicPartition{}, out[id]...)
	}
	taken := map[group.TopicPartition]bool{}
	if !k.doubleAssigns {
		for _, tps := range out {
			for _, tp := range tps {
				taken[tp] = true
			}
		}
	}
	var free []group.TopicPartition
	for _, tp := range all {
		if !taken[tp] {
			free = append(free, tp)
		}
	}
	deal(out, free, underMin, atMin, minQ, maxQ, numMax, expectedMax)
	if k.freezesOnRevoke && movesAway(out, own) {
		return normalize(keptOnly(out, own))
	}
	return normalize(k.withhold(out, own))
}

// movesAway reports whether the target takes a partition from its owner.
func movesAway(target group.Assignment, own map[group.TopicPartition]string) bool {
	for id, tps := range target {
		for _, tp := range tps {
			if o := own[tp]; o != "" && o != id {
				return true
			}
		}
	}
	return false
}

// keptOnly keeps, of each member's target, only what it already owns.
func keptOnly(target group.Assignment, own map[group.TopicPartition]string) group.Assignment {
	out := group.Assignment{}
	for id, tps := range target {
		out[id] = []group.TopicPartition{}
		for _, tp := range tps {
			if own[tp] == id {
				out[id] = append(out[id], tp)
			}
		}
	}
	return out
}

// deal hands the free partitions round-robin to the members below minQuota,
// then one each to members at minQuota while fewer than expectedMax members
// hold maxQuota.
func deal(out group.Assignment, free []group.TopicPartition, underMin, atMin []string, minQ, maxQ, numMax, expectedMax int) {
	i := 0
	for _, tp := range free {
		var id string
		fromUnder := len(underMin) > 0
		switch {
		case fromUnder:
			i %= len(underMin)
			id = underMin[i]
		case len(atMin) > 0 && numMax < expectedMax:
			id, atMin = atMin[0], atMin[1:]
		default:
			return
		}
		out[id] = append(out[id], tp)
		switch n := len(out[id]); {
		case fromUnder && n == minQ:
			underMin = slices.Delete(underMin, i, i+1)
			atMin = append(atMin, id)
		case fromUnder:
			i++
		case n == maxQ:
			numMax++
		}
	}
}

// withhold is KIP-429's step: a partition another member still owns is left
// out of this round.
func (k stickyKnobs) withhold(target group.Assignment, own map[group.TopicPartition]string) group.Assignment {
	if k.handsOutRevoked {
		return target
	}
	out := group.Assignment{}
	for id, tps := range target {
		out[id] = []group.TopicPartition{}
		for _, tp := range tps {
			o := own[tp]
			if o == "" || (o == id && !k.revokesEverything) {
				out[id] = append(out[id], tp)
			}
		}
	}
	return out
}
