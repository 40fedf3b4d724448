package group

import (
	"cmp"
	"slices"
)

// StickyAssignor is Kafka's StickyAssignor ("sticky", eager), built on the
// rules of AbstractStickyAssignor (checked at Kafka 3.7.0): first balance,
// then keep as much of the previous assignment as balance allows.
//
// With identical subscriptions (ConstrainedAssignmentBuilder): P partitions
// over N members give minQuota = ⌊P/N⌋, maxQuota = ⌈P/N⌉, and exactly P mod N
// members hold maxQuota. Each member (by member id) keeps its previously
// owned partitions up to its quota, the first ones in the order it listed
// them (assignOwnedPartitions takes a prefix of the member's previous
// assignment as its user data carries it, not the lowest partitions); the
// rest are released. The unassigned partitions, sorted, are dealt
// round-robin to the members below minQuota, then one each to members at
// minQuota while fewer than P mod N hold maxQuota. Every member ends within
// one partition of every other, and its list is what it kept followed by
// what it was dealt (see [Assignment]).
//
// Previous ownership is read from each member's OwnedPartitions and
// Generation: the claim of the highest generation wins, and a partition
// claimed by two members of that same generation counts as owned by neither.
//
// With different subscriptions (the general case) each member keeps what it
// owned and may still consume, new partitions go to the eligible member with
// the fewest, and partitions then move from fuller to emptier eligible
// members until no move narrows the gap. That is a simplification of Kafka's
// GeneralAssignmentBuilder ([StickyGeneralCase] and [StickyGeneralCaseNote]
// say when and how);
// only "every partition once, to a subscriber" is promised there.
//
// One more simplification: Kafka visits the members in a HashMap's order
// when each keeps its owned partitions, which decides who keeps maxQuota
// when more members own that many than may; the project visits them by
// member id.
type StickyAssignor struct{}

// Name returns "sticky".
func (StickyAssignor) Name() string { return "sticky" }

// Protocol returns [Eager].
func (StickyAssignor) Protocol() RebalanceProtocol { return Eager }

// Assign implements [Assignor].
func (StickyAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	a, _ := stickyAssign(members, topics, true)
	return a
}

// stickyAssign returns the sticky target and the partitions it hands to a
// new owner while another member must first give them up (Kafka's
// partitionsTransferringOwnership, by new owner). listedOrder keeps owned
// partitions in the order each member listed them and returns each member's
// partitions in Kafka's order (eager sticky); otherwise owned partitions
// count in partition order and the lists come back sorted.
func stickyAssign(members []MemberSubscription, topics []TopicMetadata, listedOrder bool) (Assignment, map[TopicPartition]string) {
	ms := normalizedMembers(members)
	slices.SortFunc(ms, func(a, b MemberSubscription) int { return cmp.Compare(a.MemberID, b.MemberID) })
	counts := partitionCounts(topics)
	owners, contested := previousOwners(ms, counts)
	kept := make(map[string][]TopicPartition, len(ms))
	for _, m := range ms {
		owned := m.OwnedPartitions
		if !listedOrder {
			owned = SortedPartitions(owned)
		}
		for _, tp := range owned {
			if owners[tp] == m.MemberID {
				kept[m.MemberID] = append(kept[m.MemberID], tp)
			}
		}
	}
	if len(ms) == 0 {
		return Assignment{}, map[TopicPartition]string{}
	}
	var out Assignment
	var transferring map[TopicPartition]string
	if identicalSubscriptions(ms, counts) {
		all := allPartitions(subscribedTopics(ms, counts), counts)
		var dealt map[string][]TopicPartition
		out, dealt = constrainedAssign(ms, kept, all)
		transferring = constrainedTransfers(dealt, owners, contested)
	} else {
		out = generalAssign(ms, kept, counts)
		transferring = generalTransfers(ms, out)
	}
	if !listedOrder {
		sortAssignment(out)
	}
	return out, transferring
}

// constrainedTransfers is what ConstrainedAssignmentBuilder.assignNewPartition
// records: a partition dealt to a member that its previous owner released
// beyond its quota (allRevokedPartitions), or that two members of the same
// generation claimed. A partition whose only claim lost to a newer
// generation's is not among them.
func constrainedTransfers(dealt map[string][]TopicPartition, owners map[TopicPartition]string, contested partitionSet) map[TopicPartition]string {
	out := map[TopicPartition]string{}
	for id, tps := range dealt {
		for _, tp := range tps {
			if owner, ok := owners[tp]; ok && owner != id || contested[tp] {
				out[tp] = id
			}
		}
	}
	return out
}

// generalTransfers is CooperativeStickyAssignor.
// computePartitionsTransferringOwnership, used after the general case: a
// partition a member is given but did not list as owned, that some member
// listed as owned and is not given.
func generalTransfers(ms []MemberSubscription, a Assignment) map[TopicPartition]string {
	added := map[TopicPartition]string{}
	revoked := partitionSet{}
	for _, m := range ms {
		owned, assigned := newPartitionSet(m.OwnedPartitions), newPartitionSet(a[m.MemberID])
		for _, tp := range a[m.MemberID] {
			if !owned[tp] {
				added[tp] = m.MemberID
			}
		}
		for _, tp := range m.OwnedPartitions {
			if !assigned[tp] {
				revoked[tp] = true
			}
		}
	}
	for tp := range added {
		if !revoked[tp] {
			delete(added, tp)
		}
	}
	return added
}

// StickyGeneralCaseNote says, for a reader of the assignment (the page),
// what the sticky assignors simplify when [StickyGeneralCase] is true.
const StickyGeneralCaseNote = "The members subscribe to different topics, so this is the sticky " +
	"assignors' general case, which kafkalive simplifies: each member keeps what it owned and still " +
	"subscribes to; partitions with the fewest eligible members are placed first, each on the eligible " +
	"member with the fewest partitions; then partitions move from fuller to emptier eligible members " +
	"until no two differ by two or more. Kafka's GeneralAssignmentBuilder balances too, but chooses " +
	"which partitions move by its own ordering and movement history (and keeps the best of several " +
	"rounds by a balance score), so single placements can differ from Kafka's."

// StickyGeneralCase reports whether the sticky and cooperative-sticky
// assignors answer these members with the general case, which is
// simplified ([StickyGeneralCaseNote]): the members' subscriptions, counting
// only topics that exist, differ. With identical subscriptions the answer
// is Kafka's ConstrainedAssignmentBuilder's.
func StickyGeneralCase(members []MemberSubscription, topics []TopicMetadata) bool {
	ms := normalizedMembers(members)
	return len(ms) > 0 && !identicalSubscriptions(ms, partitionCounts(topics))
}

// previousOwners resolves the claims in OwnedPartitions: only partitions that
// exist and that the claimant still subscribes to count, the highest
// generation wins, and a tie at that generation leaves the partition unowned
// (and contested).
func previousOwners(ms []MemberSubscription, counts map[string]int32) (map[TopicPartition]string, partitionSet) {
	type claim struct {
		member     string
		generation int32
		contested  bool
	}
	claims := map[TopicPartition]claim{}
	for _, m := range ms {
		for _, tp := range m.OwnedPartitions {
			if tp.Partition < 0 || tp.Partition >= counts[tp.Topic] || !containsString(m.Topics, tp.Topic) {
				continue
			}
			c, ok := claims[tp]
			switch {
			case !ok || m.Generation > c.generation:
				claims[tp] = claim{member: m.MemberID, generation: m.Generation}
			case m.Generation == c.generation:
				c.contested = true
				claims[tp] = c
			}
		}
	}
	owners := make(map[TopicPartition]string, len(claims))
	contested := partitionSet{}
	for tp, c := range claims {
		if c.contested {
			contested[tp] = true
		} else {
			owners[tp] = c.member
		}
	}
	return owners, contested
}

// identicalSubscriptions reports whether every member subscribes to the same
// existing topics.
func identicalSubscriptions(ms []MemberSubscription, counts map[string]int32) bool {
	first := existing(ms[0].Topics, counts)
	for _, m := range ms[1:] {
		if !slices.Equal(first, existing(m.Topics, counts)) {
			return false
		}
	}
	return true
}

func existing(topics []string, counts map[string]int32) []string {
	var out []string
	for _, t := range topics {
		if counts[t] > 0 {
			out = append(out, t)
		}
	}
	return out
}

// constrainedAssign is the identical-subscriptions algorithm described on
// [StickyAssignor]. ms are sorted by member id; kept[id] is in the order the
// member keeps them by. Each list is the kept prefix, then what was dealt;
// dealt holds the second part.
func constrainedAssign(ms []MemberSubscription, kept map[string][]TopicPartition, all []TopicPartition) (out Assignment, dealt map[string][]TopicPartition) {
	n := len(ms)
	minQuota, maxQuota := len(all)/n, (len(all)+n-1)/n
	expectedMax, numMax := len(all)%n, 0
	out = emptyAssignment(ms)
	var underMin, atMin []string
	for _, m := range ms {
		owned := kept[m.MemberID]
		switch {
		case len(owned) < minQuota:
			out[m.MemberID] = append(out[m.MemberID], owned...)
			underMin = append(underMin, m.MemberID)
		case len(owned) >= maxQuota && numMax < expectedMax:
			out[m.MemberID] = append(out[m.MemberID], owned[:maxQuota]...)
			numMax++
			if numMax == expectedMax {
				atMin = nil
			}
		default:
			out[m.MemberID] = append(out[m.MemberID], owned[:minQuota]...)
			if numMax < expectedMax {
				atMin = append(atMin, m.MemberID)
			}
		}
	}
	taken := partitionSet{}
	for _, tps := range out {
		for _, tp := range tps {
			taken[tp] = true
		}
	}
	keptCount := make(map[string]int, len(out))
	for id, tps := range out {
		keptCount[id] = len(tps)
	}
	dealRoundRobin(out, taken.minus(all), underMin, atMin, minQuota, maxQuota, numMax, expectedMax)
	dealt = make(map[string][]TopicPartition, len(out))
	for id, tps := range out {
		dealt[id] = tps[keptCount[id]:]
	}
	return out, dealt
}

// dealRoundRobin deals unassigned partitions to the members below minQuota in
// turn (a member leaves the circle when it reaches minQuota), then one each to
// members at minQuota, in the order they got there, while fewer than
// expectedMax members hold maxQuota.
func dealRoundRobin(out Assignment, unassigned []TopicPartition, underMin, atMin []string,
	minQuota, maxQuota, numMax, expectedMax int) {
	i := 0
	for _, tp := range unassigned {
		fromUnderMin := len(underMin) > 0
		var id string
		switch {
		case fromUnderMin:
			i %= len(underMin)
			id = underMin[i]
		case len(atMin) > 0 && numMax < expectedMax:
			id, atMin = atMin[0], atMin[1:]
		default:
			return // more partitions than quotas: cannot happen with correct quotas
		}
		out[id] = append(out[id], tp)
		n := len(out[id])
		switch {
		case fromUnderMin && n == minQuota:
			underMin = slices.Delete(underMin, i, i+1)
			atMin = append(atMin, id)
		case fromUnderMin:
			i++
		case n == maxQuota:
			numMax++
		}
	}
}

// generalAssign handles members with different subscriptions: keep, place
// the rest on the emptiest eligible member, then even out.
func generalAssign(ms []MemberSubscription, kept map[string][]TopicPartition, counts map[string]int32) Assignment {
	out := emptyAssignment(ms)
	for _, m := range ms {
		out[m.MemberID] = append(out[m.MemberID], kept[m.MemberID]...)
	}
	eligible := func(tp TopicPartition) []string {
		var ids []string
		for _, m := range ms {
			if containsString(m.Topics, tp.Topic) {
				ids = append(ids, m.MemberID)
			}
		}
		return ids
	}
	taken := partitionSet{}
	for _, tps := range kept {
		for _, tp := range tps {
			taken[tp] = true
		}
	}
	unassigned := taken.minus(allPartitions(subscribedTopics(ms, counts), counts))
	slices.SortStableFunc(unassigned, func(a, b TopicPartition) int {
		return cmp.Compare(len(eligible(a)), len(eligible(b)))
	})
	for _, tp := range unassigned {
		ids := eligible(tp)
		best := ids[0]
		for _, id := range ids[1:] {
			if len(out[id]) < len(out[best]) {
				best = id
			}
		}
		out[best] = append(out[best], tp)
	}
	evenOut(out, ms, eligible)
	return out
}

// evenOut moves a partition from a member to an eligible member with at
// least two fewer, until no such move exists. Each move lowers the sum of
// squared sizes, so the loop ends; the bound is a second guard.
func evenOut(out Assignment, ms []MemberSubscription, eligible func(TopicPartition) []string) {
	total := 0
	for _, tps := range out {
		total += len(tps)
	}
	for range total * total {
		if !moveOne(out, ms, eligible) {
			return
		}
	}
}

func moveOne(out Assignment, ms []MemberSubscription, eligible func(TopicPartition) []string) bool {
	for _, from := range ms {
		tps := SortedPartitions(out[from.MemberID])
		for i := len(tps) - 1; i >= 0; i-- {
			for _, to := range eligible(tps[i]) {
				if len(out[to]) < len(tps)-1 {
					moved := tps[i]
					out[from.MemberID] = slices.Delete(tps, i, i+1)
					out[to] = append(out[to], moved)
					return true
				}
			}
		}
	}
	return false
}
