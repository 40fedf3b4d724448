package doubleassigns

import (
	"cmp"
	"slices"
)

// Assign is one rebalance on the group leader with the cooperative-sticky
// assignor (CooperativeStickyAssignor, Kafka 2.4+, KIP-429, on
// AbstractStickyAssignor's constrained assignment;
// notes/06-cooperative-rebalancing.md#the-assignment).
//
// Balance comes first: nobody may end up more than one partition from anyone
// else. Within that, every member keeps as much of what it owns as it can,
// since a partition that moves pauses. And under the cooperative protocol a
// partition that moves is not handed over in this round at all: its owner
// still consumes it, so it must revoke it first.
func Assign(members []Member, topics []TopicMetadata) Assignment {
	ms := slices.Clone(members)
	// Every member's leader must reach the same answer: sort.
	slices.SortStableFunc(ms, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	all := partitionsOf(topics)
	owner := owners(ms, all)
	out := Assignment{}
	for _, m := range ms {
		out[m.MemberID] = []TopicPartition{}
	}
	if len(ms) == 0 {
		return out
	}
	q := newQuotas(len(all), len(ms))
	for _, m := range ms {
		out[m.MemberID] = append(out[m.MemberID], q.keep(m.MemberID, ownedBy(owner, all, m.MemberID))...)
	}
	q.deal(out, all) // mistake: kept partitions are dealt again
	return withhold(out, owner)
}

// quotas tracks who may still take partitions while they are dealt.
type quotas struct {
	min, max      int
	expectedMax   int      // P mod N: how many may hold max
	numMax        int      // how many hold max so far
	underMin      []string // below min, in member id order
	atMin         []string // at min and may still get one more, in the order they got there
	roundRobinPos int
}

func newQuotas(partitions, members int) *quotas {
	return &quotas{min: partitions / members, max: (partitions + members - 1) / members, expectedMax: partitions % members}
}

// keep returns what a member keeps of the partitions it owns.
func (q *quotas) keep(id string, owned []TopicPartition) []TopicPartition {
	switch {
	case len(owned) < q.min:
		q.underMin = append(q.underMin, id)
		return owned
	case len(owned) >= q.max && q.numMax < q.expectedMax:
		q.numMax++
		if q.numMax == q.expectedMax {
			q.atMin = nil // nobody else may grow to max
		}
		return owned[:q.max]
	}
	if q.numMax < q.expectedMax {
		q.atMin = append(q.atMin, id)
	}
	return owned[:q.min]
}

// deal hands out the free partitions: round-robin to those below min, then
// one each to those at min while max places are left.
func (q *quotas) deal(out Assignment, free []TopicPartition) {
	for _, tp := range free {
		if len(q.underMin) > 0 {
			q.roundRobinPos %= len(q.underMin)
			id := q.underMin[q.roundRobinPos]
			out[id] = append(out[id], tp)
			if len(out[id]) == q.min {
				q.underMin = slices.Delete(q.underMin, q.roundRobinPos, q.roundRobinPos+1)
				q.atMin = append(q.atMin, id)
			} else {
				q.roundRobinPos++
			}
			continue
		}
		if len(q.atMin) == 0 || q.numMax >= q.expectedMax {
			return
		}
		id := q.atMin[0]
		q.atMin = q.atMin[1:]
		out[id] = append(out[id], tp)
		if len(out[id]) == q.max {
			q.numMax++
		}
	}
}

// withhold is KIP-429's one new rule: a partition still owned by another
// member stays out of this round. Its owner sees it missing from its own
// assignment, revokes it, and rejoins; the follow-up rebalance hands it on.
func withhold(target Assignment, owner map[TopicPartition]string) Assignment {
	out := Assignment{}
	for id, tps := range target {
		out[id] = []TopicPartition{}
		for _, tp := range tps {
			if o, owned := owner[tp]; !owned || o == id {
				out[id] = append(out[id], tp)
			}
		}
		slices.SortFunc(out[id], compare)
	}
	return out
}

// partitionsOf lists every partition of the topics, sorted.
func partitionsOf(topics []TopicMetadata) []TopicPartition {
	var all []TopicPartition
	for _, t := range topics {
		for p := range max(t.Partitions, 0) {
			all = append(all, TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	slices.SortFunc(all, compare)
	return slices.Compact(all)
}

// owners maps each existing partition to the member that owns it.
func owners(ms []Member, all []TopicPartition) map[TopicPartition]string {
	owner := map[TopicPartition]string{}
	for _, m := range ms {
		for _, tp := range m.OwnedPartitions {
			if _, exists := slices.BinarySearchFunc(all, tp, compare); exists {
				owner[tp] = m.MemberID
			}
		}
	}
	return owner
}

// ownedBy lists what id owns, sorted.
func ownedBy(owner map[TopicPartition]string, all []TopicPartition, id string) []TopicPartition {
	var out []TopicPartition
	for _, tp := range all {
		if owner[tp] == id {
			out = append(out, tp)
		}
	}
	return out
}

// unkept lists, sorted, the partitions nobody kept.
//
//lint:ignore U1000 a mutant is the solution with one change; this is the solution's, which the mistake no longer uses
func unkept(all []TopicPartition, out Assignment) []TopicPartition {
	kept := map[TopicPartition]bool{}
	for _, tps := range out {
		for _, tp := range tps {
			kept[tp] = true
		}
	}
	var free []TopicPartition
	for _, tp := range all {
		if !kept[tp] {
			free = append(free, tp)
		}
	}
	return free
}

func compare(a, b TopicPartition) int {
	if c := cmp.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}
