package group

import (
	"cmp"
	"slices"
)

// uniformMaxIterations bounds the final balancing rounds
// (UniformHeterogeneousAssignmentBuilder.MAX_ITERATION_COUNT).
const uniformMaxIterations = 16

// heterogeneous is UniformHeterogeneousAssignmentBuilder: members numbered
// in the spec's order, each topic's subscribers in ascending member index,
// and for every partition its owner's index (-1: unassigned).
type heterogeneous struct {
	spec        GroupSpec
	topics      map[string]TopicMetadata
	members     []string
	subscribers map[string][]int
	owners      map[string][]int
	sizes       []int
	out         []map[TopicPartition]bool
}

func newHeterogeneous(spec GroupSpec) *heterogeneous {
	h := &heterogeneous{spec: spec, topics: specTopics(spec), subscribers: map[string][]int{}, owners: map[string][]int{},
		sizes: make([]int, len(spec.Members)), out: make([]map[TopicPartition]bool, len(spec.Members))}
	for i, m := range spec.Members {
		h.members = append(h.members, m.MemberID)
		h.out[i] = map[TopicPartition]bool{}
		for _, t := range subscribedIDsOrder(m, h.topics) {
			h.subscribers[t.Topic] = append(h.subscribers[t.Topic], i)
		}
	}
	for name := range h.subscribers {
		owners := make([]int, h.topics[name].Partitions)
		for p := range owners {
			owners[p] = -1
		}
		h.owners[name] = owners
	}
	return h
}

// build runs the three phases: keep what each member had of its topics,
// assign what is left to the least loaded subscribers, then balance.
func (h *heterogeneous) build() Assignment {
	if len(h.subscribers) == 0 {
		return sortedAssignment(h.spec, Assignment{})
	}
	h.keepSubscribed()
	h.assignRemaining()
	h.balance()
	out := make(Assignment, len(h.members))
	for i, id := range h.members {
		for tp := range h.out[i] {
			out[id] = append(out[id], tp)
		}
	}
	return sortedAssignment(h.spec, out)
}

// keepSubscribed is maybeRevokePartitions: a member keeps its partitions
// of the topics it still subscribes to and loses the others.
func (h *heterogeneous) keepSubscribed() {
	for i, m := range h.spec.Members {
		subscribed := map[string]bool{}
		for _, t := range subscribedIDsOrder(m, h.topics) {
			subscribed[t.Topic] = true
		}
		for _, tp := range m.Assignment {
			if subscribed[tp.Topic] && int(tp.Partition) < len(h.owners[tp.Topic]) {
				h.add(tp, i)
			}
		}
	}
}

// compareTopics orders topics by partitions per subscriber, descending;
// then subscriber count, ascending; then topic id (Uuid.compareTo).
func (h *heterogeneous) compareTopics(a, b string) int {
	pa, pb := int64(h.topics[a].Partitions), int64(h.topics[b].Partitions)
	sa, sb := int64(len(h.subscribers[a])), int64(len(h.subscribers[b]))
	if c := cmp.Compare(pb*sa, pa*sb); c != 0 {
		return c
	}
	if c := cmp.Compare(sa, sb); c != 0 {
		return c
	}
	return compareUUIDs(h.topics[a].ID, h.topics[b].ID)
}

func (h *heterogeneous) sortedTopics(names []string) []string {
	out := slices.Clone(names)
	slices.SortFunc(out, h.compareTopics)
	return out
}

// assignRemaining is assignRemainingPartitions: topic by topic in sorted
// order, each unassigned partition to the least loaded subscriber.
func (h *heterogeneous) assignRemaining() {
	var names []string
	for name, owners := range h.owners {
		if slices.Contains(owners, -1) {
			names = append(names, name)
		}
	}
	b := &balancer{h: h}
	for _, name := range h.sortedTopics(names) {
		b.initialize(h.subscribers[name])
		for p, owner := range h.owners[name] {
			if owner == -1 {
				h.assign(TopicPartition{name, int32(p)}, b.nextLeastLoaded())
			}
		}
	}
}

// balance is balanceTopics over the topics with two subscribers or more:
// rounds over the sorted topics until a whole round moved nothing, at
// most uniformMaxIterations rounds.
func (h *heterogeneous) balance() {
	var names []string
	for name, subs := range h.subscribers {
		if len(subs) >= 2 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	sorted := h.sortedTopics(names)
	last := -1
	b := &balancer{h: h}
	for range uniformMaxIterations {
		for i, name := range sorted {
			if i == last {
				return
			}
			if h.balanceTopic(name, b) > 0 || last == -1 {
				last = i
			}
		}
	}
}

// balanceTopic moves the topic's partitions from its most loaded
// subscribers to its least loaded ones until they are balanced, each time
// the last (in owner, then partition order) of the giving member's
// partitions; it returns how many moved.
func (h *heterogeneous) balanceTopic(name string, b *balancer) int {
	if b.initialize(h.subscribers[name]) <= 1 {
		return 0
	}
	owners := h.owners[name]
	partitions := make([]int, len(owners))
	for p := range partitions {
		partitions[p] = p
	}
	slices.SortFunc(partitions, func(x, y int) int {
		if c := cmp.Compare(owners[x], owners[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	start, end := map[int]int{}, map[int]int{}
	for i, p := range partitions {
		if _, ok := start[owners[p]]; !ok {
			start[owners[p]] = i
		}
		end[owners[p]] = i + 1
	}
	moved := 0
	for !b.isBalanced() {
		giver := -1
		for {
			giver = b.nextMostLoaded()
			if giver == -1 {
				break
			}
			if e, ok := end[giver]; !ok || e-start[giver] <= 0 {
				b.excludeMostLoaded()
				continue
			}
			break
		}
		if giver == -1 {
			break
		}
		p := partitions[end[giver]-1]
		end[giver]--
		taker := b.nextLeastLoaded()
		if b.isBalanced() {
			break
		}
		h.assign(TopicPartition{name, int32(p)}, taker)
		moved++
	}
	return moved
}

// assign gives tp to member i, taking it from its owner.
func (h *heterogeneous) assign(tp TopicPartition, i int) {
	if old := h.owners[tp.Topic][tp.Partition]; old != -1 {
		delete(h.out[old], tp)
		h.sizes[old]--
	}
	h.add(tp, i)
}

func (h *heterogeneous) add(tp TopicPartition, i int) {
	h.out[i][tp] = true
	h.owners[tp.Topic][tp.Partition] = i
	h.sizes[i]++
}

// balancer is MemberAssignmentBalancer: the members sorted by size, a
// least loaded range growing rightwards and a most loaded range growing
// leftwards.
type balancer struct {
	h                                       *heterogeneous
	sorted                                  []int
	leastEnd, leastCount, nextLeast         int
	mostStart, mostEnd, mostCount, nextMost int
}

// initialize resets the balancer for members and returns the difference
// between the largest and the smallest member.
func (b *balancer) initialize(members []int) int {
	sizes := b.h.sizes
	b.sorted = slices.Clone(members)
	slices.SortFunc(b.sorted, func(x, y int) int {
		if c := cmp.Compare(sizes[x], sizes[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	n := len(b.sorted)
	b.leastEnd, b.leastCount, b.nextLeast = 0, sizes[b.sorted[0]]-1, 0
	b.mostStart, b.mostEnd, b.mostCount, b.nextMost = n, n, sizes[b.sorted[n-1]]+1, n-1
	return sizes[b.sorted[n-1]] - sizes[b.sorted[0]]
}

// nextLeastLoaded returns the member to give a partition to, counting it
// given.
func (b *balancer) nextLeastLoaded() int {
	sizes := b.h.sizes
	if b.nextLeast >= b.leastEnd {
		b.leastCount++
		for b.leastEnd < len(b.sorted) && sizes[b.sorted[b.leastEnd]] == b.leastCount {
			b.leastEnd++
		}
		b.nextLeast = 0
	}
	m := b.sorted[b.nextLeast]
	b.nextLeast++
	return m
}

// nextMostLoaded returns the member to take a partition from, counting it
// taken; -1 when none is left.
func (b *balancer) nextMostLoaded() int {
	sizes := b.h.sizes
	if b.nextMost < b.mostStart {
		if b.mostEnd <= b.mostStart && b.mostStart > 0 {
			b.mostCount = sizes[b.sorted[b.mostStart-1]]
		} else {
			b.mostCount--
		}
		for b.mostStart > 0 && sizes[b.sorted[b.mostStart-1]] == b.mostCount {
			b.mostStart--
		}
		b.nextMost = b.mostEnd - 1
	}
	if b.nextMost < 0 {
		return -1
	}
	m := b.sorted[b.nextMost]
	b.nextMost--
	return m
}

// excludeMostLoaded drops the member nextMostLoaded last returned from the
// most loaded range (it has nothing to give).
func (b *balancer) excludeMostLoaded() {
	i := b.nextMost + 1
	b.sorted[i], b.sorted[b.mostEnd-1] = b.sorted[b.mostEnd-1], b.sorted[i]
	b.mostEnd--
}

// isBalanced: the two ranges' counts differ by one at most.
func (b *balancer) isBalanced() bool { return b.mostCount-b.leastCount <= 1 }
