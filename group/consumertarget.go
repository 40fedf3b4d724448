package group

import (
	"maps"
	"slices"
	"strings"
)

// targetAssignment computes a group's new target assignment with member
// old (nil: none) replaced by updated (GroupMetadataManager.updateTargetAssignment
// and TargetAssignmentBuilder): every member with its current target (a
// static member taking another's place gets that one's), the group's
// preferred server-side assignor, the subscription metadata.
func (c *ConsumerGroupCoordinator) targetAssignment(g *consumerGroup, old, updated *consumerMember, subscription map[string]TopicMetadata) (map[string][]TopicPartition, error) {
	spec := GroupSpec{Topics: slices.SortedFunc(maps.Values(subscription), func(a, b TopicMetadata) int { return strings.Compare(a.Topic, b.Topic) })}
	var ids []string
	members := map[string]*consumerMember{}
	for _, id := range g.sortedMemberIDs() {
		if old != nil && id == old.id {
			continue
		}
		ids = append(ids, id)
		members[id] = g.members[id]
	}
	if members[updated.id] == nil {
		ids = append(ids, updated.id)
	}
	members[updated.id] = updated
	for _, id := range javaHashOrder(ids, javaStringHash) {
		m := members[id]
		a := g.target[id]
		if m == updated && old != nil && old.id != updated.id {
			a = g.target[old.id]
		}
		spec.Members = append(spec.Members, SpecMember{MemberID: id, InstanceID: m.instanceID, RackID: m.rackID, Topics: c.memberTopics(m), Assignment: a})
	}
	spec.Homogeneous = isHomogeneous(spec.Members)
	assignor := ServerAssignors()[c.preferredAssignor(g, old, updated)]
	out, err := assignor.Assign(spec)
	if err != nil {
		return nil, err
	}
	targets := make(map[string][]TopicPartition, len(spec.Members))
	for _, m := range spec.Members {
		targets[m.MemberID] = out[m.MemberID]
	}
	return targets, nil
}

// preferredAssignor is ConsumerGroup.computePreferredServerAssignor: the
// server assignor the most members ask for (old replaced by updated), a
// tie to the first in the iteration order of Kafka's HashMap of counts;
// the broker's default (the first of group.consumer.assignors) when none
// asks.
func (c *ConsumerGroupCoordinator) preferredAssignor(g *consumerGroup, old, updated *consumerMember) string {
	counts := map[string]int{}
	var names []string
	count := func(m *consumerMember, d int) {
		if m == nil || m.serverAssignor == "" {
			return
		}
		if _, ok := counts[m.serverAssignor]; !ok {
			names = append(names, m.serverAssignor)
		}
		counts[m.serverAssignor] += d
	}
	for _, id := range g.sortedMemberIDs() {
		count(g.members[id], 1)
	}
	count(old, -1)
	count(updated, 1)
	best := ""
	for _, n := range javaHashOrder(names, javaStringHash) {
		if counts[n] > 0 && (best == "" || counts[n] > counts[best]) {
			best = n
		}
	}
	if best == "" {
		return c.cfg.Assignors[0]
	}
	return best
}
