package group

import (
	"cmp"
	"slices"
)

// StickyAssignor is Kafka's StickyAssignor ("sticky", eager), built on the
// rules of AbstractStickyAssignor: first balance, then keep as much of the
// previous assignment as balance allows.
//
// With identical subscriptions (the constrained case): P partitions over N
// members give minQuota = ⌊P/N⌋, maxQuota = ⌈P/N⌉, and exactly P mod N members
// hold maxQuota. Each member (by member id) keeps its previously owned
// partitions in partition order up to its quota; the rest are released. The
// unassigned partitions, sorted, are dealt round-robin to the members below
// minQuota, then one each to members at minQuota while fewer than P mod N
// hold maxQuota. Every member ends within one partition of every other.
//
// Previous ownership is read from each member's OwnedPartitions and
// Generation: the claim of the highest generation wins, and a partition
// claimed by two members of that same generation counts as owned by neither.
//
// With different subscriptions (the general case) each member keeps what it
// owned and may still consume, new partitions go to the eligible member with
// the fewest, and partitions then move from fuller to emptier eligible
// members until no move narrows the gap. That is a simplification of Kafka's
// generalAssign; only "every partition once, to a subscriber" is promised.
type StickyAssignor struct{}

// Name returns "sticky".
func (StickyAssignor) Name() string { return "sticky" }

// Protocol returns [Eager].
func (StickyAssignor) Protocol() RebalanceProtocol { return Eager }

// Assign implements [Assignor].
func (StickyAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	a, _ := stickyAssign(members, topics)
	return a
}

// stickyAssign returns the sticky target and the accepted previous owner of
// every partition that has one.
func stickyAssign(members []MemberSubscription, topics []TopicMetadata) (Assignment, map[TopicPartition]string) {
	ms := normalizedMembers(members)
	slices.SortFunc(ms, func(a, b MemberSubscription) int { return cmp.Compare(a.MemberID, b.MemberID) })
	counts := partitionCounts(topics)
	owners := previousOwners(ms, counts)
	kept := make(map[string][]TopicPartition, len(ms))
	for _, tp := range sortedKeys(owners) {
		kept[owners[tp]] = append(kept[owners[tp]], tp)
	}
	if len(ms) == 0 {
		return Assignment{}, owners
	}
	if identicalSubscriptions(ms, counts) {
		all := allPartitions(subscribedTopics(ms, counts), counts)
		return constrainedAssign(ms, kept, all), owners
	}
	return generalAssign(ms, kept, counts), owners
}

// previousOwners resolves the claims in OwnedPartitions: only partitions that
// exist and that the claimant still subscribes to count, the highest
// generation wins, and a tie at that generation leaves the partition unowned.
func previousOwners(ms []MemberSubscription, counts map[string]int32) map[TopicPartition]string {
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
	for tp, c := range claims {
		if !c.contested {
			owners[tp] = c.member
		}
	}
	return owners
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
// [StickyAssignor]. ms are sorted by member id; kept[id] is sorted.
func constrainedAssign(ms []MemberSubscription, kept map[string][]TopicPartition, all []TopicPartition) Assignment {
	n := len(ms)
	minQuota, maxQuota := len(all)/n, (len(all)+n-1)/n
	expectedMax, numMax := len(all)%n, 0
	out := emptyAssignment(ms)
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
	dealRoundRobin(out, taken.minus(all), underMin, atMin, minQuota, maxQuota, numMax, expectedMax)
	return sortAssignment(out)
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
	return sortAssignment(out)
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

// sortedKeys returns the partitions of m sorted.
func sortedKeys[V any](m map[TopicPartition]V) []TopicPartition {
	out := make([]TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, CompareTopicPartitions)
	return out
}
