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
// group before and after the operation (the group journals the members and
// targets an operation touches, so that a heartbeat costs what it changed),
// so that whatever the operation did, replaying the records rebuilds the group
// ([ConsumerGroupCoordinator.LoadGroups]).

// groupImage is a group's state before an operation, for persist to
// compare with after it: its epochs and subscription map (replaced whole,
// never changed in place), and the journal the group keeps of the members
// and targets the operation touched, so that an operation costs what it
// changed, not the group's size.
type groupImage struct {
	exists                      bool
	groupEpoch, assignmentEpoch int32
	subscription                map[string]TopicMetadata
	journal                     *groupJournal
}

// groupJournal is what an operation changed of a group, as it was before:
// each member it put or removed (nil: absent before), each target it
// removed (present or not), and the whole target map if it replaced it.
type groupJournal struct {
	members     map[string]*consumerMember
	targetsWere map[string]targetWas
	oldTargets  map[string][]TopicPartition
	replaced    bool
}

type targetWas struct {
	tps     []TopicPartition
	present bool
}

// member records member id as it is, on its first change.
func (j *groupJournal) member(g *consumerGroup, id string) {
	if j == nil {
		return
	}
	if _, ok := j.members[id]; !ok {
		j.members[id] = g.members[id]
	}
}

// target records member id's target as it is, on its first change.
func (j *groupJournal) target(g *consumerGroup, id string) {
	if j == nil {
		return
	}
	if _, ok := j.targetsWere[id]; !ok {
		tps, present := g.target[id]
		j.targetsWere[id] = targetWas{tps, present}
	}
}

// targets records the target map as it is, before it is replaced.
func (j *groupJournal) targets(g *consumerGroup) {
	if j != nil && !j.replaced {
		j.oldTargets, j.replaced = g.target, true
	}
}

// targetBefore is member id's target before the operation.
func (j *groupJournal) targetBefore(g *consumerGroup, id string) ([]TopicPartition, bool) {
	if w, ok := j.targetsWere[id]; ok {
		return w.tps, w.present
	}
	if j.replaced {
		tps, ok := j.oldTargets[id]
		return tps, ok
	}
	tps, ok := g.target[id]
	return tps, ok
}

// memberBefore is member id before the operation.
func (j *groupJournal) memberBefore(g *consumerGroup, id string) *consumerMember {
	if m, ok := j.members[id]; ok {
		return m
	}
	return g.members[id]
}

// imageOf takes the image of g (nil or dead: a group that does not exist)
// and starts its journal.
func imageOf(g *consumerGroup) groupImage {
	if g == nil || g.dead {
		return groupImage{}
	}
	g.journal = &groupJournal{members: map[string]*consumerMember{}, targetsWere: map[string]targetWas{}}
	return groupImage{exists: true, groupEpoch: g.groupEpoch, assignmentEpoch: g.assignmentEpoch, subscription: g.subscription,
		journal: g.journal}
}

// persist appends to Ready the records that take group id from image
// before to its state now, and ends its journal.
func (c *ConsumerGroupCoordinator) persist(id string, before groupImage) {
	g := c.groups[id]
	if g != nil {
		defer func() { g.journal = nil }()
	}
	switch {
	case (g == nil || g.dead) && before.exists:
		c.writeTombstones(id, g)
		return
	case g == nil || g.dead:
		return
	}
	j := before.journal
	if j == nil { // a new group: everything in it is new
		j = &groupJournal{members: map[string]*consumerMember{}, targetsWere: map[string]targetWas{}, replaced: true}
		for mid := range g.members {
			j.members[mid] = nil
		}
	}
	w := recordWriter{group: id, topics: c.topics}
	touched := slices.Sorted(maps.Keys(j.members))
	for _, mid := range touched {
		if j.members[mid] != nil && g.members[mid] == nil {
			w.tombstone(ConsumerGroupCurrentMemberAssignmentType, mid)
			w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid)
			w.tombstone(ConsumerGroupMemberMetadataType, mid)
		}
	}
	for _, mid := range touched {
		if m, old := g.members[mid], j.members[mid]; m != nil && (old == nil || !sameMetadata(old, m)) {
			w.member(m)
		}
	}
	if !sameSubscription(before.subscription, g.subscription) {
		w.subscription(g.subscription)
	}
	if !before.exists || before.groupEpoch != g.groupEpoch {
		w.epoch(ConsumerGroupMetadataType, g.groupEpoch)
	}
	c.writeTargets(&w, g, j)
	if !before.exists || before.assignmentEpoch != g.assignmentEpoch {
		w.epoch(ConsumerGroupTargetAssignmentMetadataType, g.assignmentEpoch)
	}
	for _, mid := range touched {
		if m, old := g.members[mid], j.members[mid]; m != nil && (old == nil || !sameCurrent(old, m)) {
			w.current(m)
		}
	}
	c.ready.ConsumerGroups = append(c.ready.ConsumerGroups, w.recs...)
}

// writeTargets writes each member's target that changed: those the
// operation removed (a tombstone unless the member's three tombstones
// were written), and, if it replaced the target map, every target that
// differs from the old map's.
func (c *ConsumerGroupCoordinator) writeTargets(w *recordWriter, g *consumerGroup, j *groupJournal) {
	ids := slices.Collect(maps.Keys(j.targetsWere))
	if j.replaced {
		ids = slices.AppendSeq(ids, maps.Keys(g.target))
		ids = slices.AppendSeq(ids, maps.Keys(j.oldTargets))
	}
	slices.Sort(ids)
	for _, mid := range slices.Compact(ids) {
		was, wasPresent := j.targetBefore(g, mid)
		now, present := g.target[mid]
		switch {
		case present && (!wasPresent || !slices.Equal(was, now)):
			w.target(mid, now)
		case !present && wasPresent && (j.memberBefore(g, mid) == nil || g.members[mid] != nil):
			w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid) // removed above otherwise
		}
	}
}

// writeTombstones appends the tombstones of a deleted group
// (ConsumerGroup.createGroupTombstoneRecords), g as it was (nil: gone
// already, an Empty group without targets).
func (c *ConsumerGroupCoordinator) writeTombstones(id string, g *consumerGroup) {
	w := recordWriter{group: id}
	var members []string
	var targets []string
	if g != nil {
		members, targets = slices.Sorted(maps.Keys(g.members)), slices.Sorted(maps.Keys(g.target))
	}
	for _, mid := range members {
		w.tombstone(ConsumerGroupCurrentMemberAssignmentType, mid)
	}
	for _, mid := range targets {
		w.tombstone(ConsumerGroupTargetAssignmentMemberType, mid)
	}
	w.tombstone(ConsumerGroupTargetAssignmentMetadataType, "")
	for _, mid := range members {
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
