package group

import (
	"maps"
	"slices"
)

// A consumer-protocol group's state is persisted as records beside its
// offsets, as Kafka 4's GroupMetadataManager writes them with every change
// (KIP-848; read in the trunk of late 2024): each operation (a heartbeat,
// a member fenced by a timer, a deletion) yields the records of what it
// changed, in Kafka's order:
//
//  1. for each member removed: its current assignment, target assignment
//     and member metadata tombstones (removeMember);
//  2. for each member new or changed: its member metadata
//     (hasMemberSubscriptionChanged);
//  3. the subscription metadata, if it changed; the group epoch, if it
//     moved (or the group is new);
//  4. each member's target assignment that changed, and the target
//     assignment epoch, if it moved (updateTargetAssignment writes the
//     delta);
//  5. each member's current assignment that changed (maybeReconcile).
//
// A deleted group (or an empty one the classic protocol takes over) gets
// createGroupTombstoneRecords' tombstones: current assignments, target
// assignments, the target epoch, member metadata, subscription metadata,
// the group epoch. The records are computed as the difference between the
// group before and after the operation, so that whatever the operation
// did, replaying the records rebuilds the group
// ([ConsumerGroupCoordinator.LoadGroups]).

// groupImage is what the records written so far say of a group: taken
// before an operation and compared after it. It shares the members (never
// changed in place) and the subscription map (replaced whole).
type groupImage struct {
	exists                      bool
	groupEpoch, assignmentEpoch int32
	subscription                map[string]TopicMetadata
	members                     map[string]*consumerMember
	target                      map[string][]TopicPartition
}

// imageOf takes the image of g (nil or dead: a group that does not exist).
func imageOf(g *consumerGroup) groupImage {
	if g == nil || g.dead {
		return groupImage{}
	}
	return groupImage{exists: true, groupEpoch: g.groupEpoch, assignmentEpoch: g.assignmentEpoch, subscription: g.subscription,
		members: maps.Clone(g.members), target: maps.Clone(g.target)}
}

// persist appends to Ready the records that take group id from image
// before to its state now.
func (c *ConsumerGroupCoordinator) persist(id string, before groupImage) {
	after := imageOf(c.groups[id])
	switch {
	case !after.exists && before.exists:
		c.writeTombstones(id, before)
		return
	case !after.exists:
		return
	}
	w := recordWriter{group: id, topics: c.topics}
	for _, mid := range slices.Sorted(maps.Keys(before.members)) {
		if after.members[mid] == nil {
			w.tombstone(ConsumerGroupCurrentMemberAssignmentType, mid)
			w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid)
			w.tombstone(ConsumerGroupMemberMetadataType, mid)
		}
	}
	ids := slices.Sorted(maps.Keys(after.members))
	for _, mid := range ids {
		if m, old := after.members[mid], before.members[mid]; old == nil || !sameMetadata(old, m) {
			w.member(m)
		}
	}
	if !sameSubscription(before.subscription, after.subscription) {
		w.subscription(after.subscription)
	}
	if !before.exists || before.groupEpoch != after.groupEpoch {
		w.epoch(ConsumerGroupMetadataType, after.groupEpoch)
	}
	for _, mid := range slices.Sorted(maps.Keys(after.target)) {
		if old, ok := before.target[mid]; !ok || !slices.Equal(old, after.target[mid]) {
			w.target(mid, after.target[mid])
		}
	}
	for _, mid := range slices.Sorted(maps.Keys(before.target)) {
		if _, ok := after.target[mid]; !ok && before.members[mid] != nil && after.members[mid] != nil {
			w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid) // removed above otherwise
		}
	}
	if !before.exists || before.assignmentEpoch != after.assignmentEpoch {
		w.epoch(ConsumerGroupTargetAssignmentMetadataType, after.assignmentEpoch)
	}
	for _, mid := range ids {
		if m, old := after.members[mid], before.members[mid]; old == nil || !sameCurrent(old, m) {
			w.current(m)
		}
	}
	c.ready.ConsumerGroups = append(c.ready.ConsumerGroups, w.recs...)
}

// writeTombstones appends the tombstones of a deleted group
// (ConsumerGroup.createGroupTombstoneRecords).
func (c *ConsumerGroupCoordinator) writeTombstones(id string, before groupImage) {
	w := recordWriter{group: id}
	for _, mid := range slices.Sorted(maps.Keys(before.members)) {
		w.tombstone(ConsumerGroupCurrentMemberAssignmentType, mid)
	}
	for _, mid := range slices.Sorted(maps.Keys(before.target)) {
		w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid)
	}
	w.tombstone(ConsumerGroupTargetAssignmentMetadataType, "")
	for _, mid := range slices.Sorted(maps.Keys(before.members)) {
		w.tombstone(ConsumerGroupMemberMetadataType, mid)
	}
	w.tombstone(ConsumerGroupPartitionMetadataType, "")
	w.tombstone(ConsumerGroupMetadataType, "")
	c.ready.ConsumerGroups = append(c.ready.ConsumerGroups, w.recs...)
}

// sameMetadata compares what a member's metadata record holds.
func sameMetadata(a, b *consumerMember) bool {
	return a.instanceID == b.instanceID && a.rackID == b.rackID && a.clientID == b.clientID && a.clientHost == b.clientHost &&
		slices.Equal(a.topics, b.topics) && a.regex == b.regex && a.rebalanceTimeoutMs == b.rebalanceTimeoutMs &&
		a.serverAssignor == b.serverAssignor
}

// sameCurrent compares what a member's current assignment record holds.
func sameCurrent(a, b *consumerMember) bool {
	return a.epoch == b.epoch && a.previousEpoch == b.previousEpoch && a.state == b.state &&
		slices.Equal(a.assigned, b.assigned) && slices.Equal(a.revoking, b.revoking)
}

// recordWriter builds one operation's records for a group, naming topics
// by the ids the coordinator knows.
type recordWriter struct {
	group  string
	topics map[string]TopicMetadata
	recs   []ConsumerGroupRecord
}

func (w *recordWriter) add(r ConsumerGroupRecord) {
	r.Group = w.group
	w.recs = append(w.recs, r)
}

func (w *recordWriter) tombstone(t ConsumerGroupRecordType, member string) {
	w.add(ConsumerGroupRecord{Type: t, MemberID: member, Tombstone: true})
}

func (w *recordWriter) epoch(t ConsumerGroupRecordType, epoch int32) {
	w.add(ConsumerGroupRecord{Type: t, Epoch: epoch})
}

func (w *recordWriter) subscription(s map[string]TopicMetadata) {
	topics := make([]TopicMetadata, 0, len(s))
	for _, n := range slices.Sorted(maps.Keys(s)) {
		topics = append(topics, s[n])
	}
	w.add(ConsumerGroupRecord{Type: ConsumerGroupPartitionMetadataType, Topics: topics})
}

func (w *recordWriter) member(m *consumerMember) {
	w.add(ConsumerGroupRecord{Type: ConsumerGroupMemberMetadataType, MemberID: m.id, Member: ConsumerMemberMetadata{
		InstanceID: m.instanceID, RackID: m.rackID, ClientID: m.clientID, ClientHost: m.clientHost,
		SubscribedTopicNames: slices.Clone(m.topics), SubscribedTopicRegex: m.regex,
		RebalanceTimeoutMs: m.rebalanceTimeoutMs, ServerAssignor: m.serverAssignor,
	}})
}

func (w *recordWriter) target(member string, tps []TopicPartition) {
	w.add(ConsumerGroupRecord{Type: ConsumerGroupTargetAssignmentMemberType, MemberID: member, Partitions: w.byID(tps)})
}

func (w *recordWriter) current(m *consumerMember) {
	w.add(ConsumerGroupRecord{Type: ConsumerGroupCurrentMemberAssignmentType, MemberID: m.id, Current: ConsumerMemberAssignment{
		MemberEpoch: m.epoch, PreviousMemberEpoch: m.previousEpoch, State: m.state,
		Assigned: w.byID(m.assigned), Revoking: w.byID(m.revoking),
	}})
}

// byID groups partitions by topic id, topics in the order they first
// appear (Kafka's order is its HashMap's of topic ids). A topic the
// coordinator no longer knows keeps a zero id.
func (w *recordWriter) byID(tps []TopicPartition) []TopicIDPartitions {
	out := []TopicIDPartitions{}
	index := map[string]int{}
	for _, tp := range tps {
		i, ok := index[tp.Topic]
		if !ok {
			i = len(out)
			index[tp.Topic] = i
			out = append(out, TopicIDPartitions{TopicID: w.topics[tp.Topic].ID, Partitions: []int32{}})
		}
		out[i].Partitions = append(out[i].Partitions, tp.Partition)
	}
	return out
}
