package group

import (
	"maps"
	"slices"
)

// ConsumerGroupState is a consumer-protocol group's state
// (ConsumerGroup.ConsumerGroupState): it is computed from the epochs and
// the members, never set.
type ConsumerGroupState int8

const (
	// ConsumerGroupEmpty: no members. Committed offsets may remain.
	ConsumerGroupEmpty ConsumerGroupState = iota
	// ConsumerGroupAssigning: the group epoch moved past the target
	// assignment's; the next heartbeat computes a new target.
	ConsumerGroupAssigning
	// ConsumerGroupReconciling: some member has not reached the target
	// assignment yet (it revokes, or waits for partitions others release).
	ConsumerGroupReconciling
	// ConsumerGroupStable: every member owns its target assignment at the
	// target epoch.
	ConsumerGroupStable
	// ConsumerGroupDead: deleted.
	ConsumerGroupDead
)

var consumerGroupStateNames = [...]string{"Empty", "Assigning", "Reconciling", "Stable", "Dead"}

// String returns Kafka's name, e.g. Reconciling.
func (s ConsumerGroupState) String() string {
	if s >= 0 && int(s) < len(consumerGroupStateNames) {
		return consumerGroupStateNames[s]
	}
	return "Unknown"
}

// ConsumerMemberState is where a member is on its way to its target
// assignment (MemberState, whose meaning CurrentAssignmentBuilder
// defines).
type ConsumerMemberState int8

const (
	// MemberReconciled: the member owns its target assignment at the
	// target epoch, or moves to it with nothing to wait for (STABLE).
	MemberReconciled ConsumerMemberState = iota
	// MemberUnrevokedPartitions: the member must revoke partitions before
	// it may move to the next epoch (UNREVOKED_PARTITIONS).
	MemberUnrevokedPartitions
	// MemberUnreleasedPartitions: the member is at the target epoch but
	// waits for partitions their previous owners have not revoked yet
	// (UNRELEASED_PARTITIONS).
	MemberUnreleasedPartitions
)

var consumerMemberStateNames = [...]string{"STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS"}

// String returns Kafka's name, e.g. UNREVOKED_PARTITIONS.
func (s ConsumerMemberState) String() string {
	if s >= 0 && int(s) < len(consumerMemberStateNames) {
		return consumerMemberStateNames[s]
	}
	return "UNKNOWN"
}

// consumerGroup is one consumer-protocol group (ConsumerGroup).
type consumerGroup struct {
	id string
	// groupEpoch moves when the membership or the subscriptions change;
	// assignmentEpoch is the epoch of the target assignment.
	groupEpoch, assignmentEpoch int32
	members                     map[string]*consumerMember
	// static maps group.instance.id to the member id holding it.
	static map[string]string
	// target is the target assignment, by member id, sorted.
	target map[string][]TopicPartition
	// owners is the epoch of the member owning each partition (assigned or
	// pending revocation): a partition in it is not free to assign
	// (currentPartitionEpoch).
	owners map[TopicPartition]int32
	// subscription is the subscription metadata: every subscribed topic
	// that exists, with its id and partition count, by name.
	subscription map[string]TopicMetadata
	// timers are the members' deadlines, by member id.
	timers map[string]consumerTimers
	dead   bool
	// journal, while an operation runs, keeps what it changed
	// (consumerpersist.go); nil otherwise (and in every clone).
	journal *groupJournal
}

// consumerMember is one member as the coordinator knows it
// (ConsumerGroupMember). The coordinator replaces a member, never changes
// one in place, so a clone may share them.
type consumerMember struct {
	id, instanceID, rackID, clientID, clientHost string
	epoch, previousEpoch                         int32
	state                                        ConsumerMemberState
	rebalanceTimeoutMs                           int32
	serverAssignor                               string
	// topics are the subscribed topic names, sorted; nil before the
	// member's first heartbeat is applied.
	topics []string
	// regex is the subscribed topic regex, "" for none.
	regex string
	// assigned and revoking (partitions pending revocation) are sorted.
	assigned, revoking []TopicPartition
}

// consumerTimers are a member's deadlines: its session (renewed by every
// heartbeat) and, while it revokes, its rebalance timeout for the epoch it
// must leave.
type consumerTimers struct {
	sessionMs      int64
	rebalanceMs    int64
	rebalanceEpoch int32
}

func newConsumerGroup(id string) *consumerGroup {
	return &consumerGroup{id: id, members: map[string]*consumerMember{}, static: map[string]string{},
		target: map[string][]TopicPartition{}, owners: map[TopicPartition]int32{}, subscription: map[string]TopicMetadata{},
		timers: map[string]consumerTimers{}}
}

// state is ConsumerGroup.maybeUpdateGroupState.
func (g *consumerGroup) state() ConsumerGroupState {
	switch {
	case g.dead:
		return ConsumerGroupDead
	case len(g.members) == 0:
		return ConsumerGroupEmpty
	case g.groupEpoch > g.assignmentEpoch:
		return ConsumerGroupAssigning
	}
	for _, m := range g.members {
		if !m.reconciledTo(g.assignmentEpoch) {
			return ConsumerGroupReconciling
		}
	}
	return ConsumerGroupStable
}

// reconciledTo is ModernGroupMember.isReconciledTo.
func (m *consumerMember) reconciledTo(epoch int32) bool {
	return m.state == MemberReconciled && m.epoch == epoch
}

// ownerEpoch is currentPartitionEpoch: the epoch of tp's owner, -1 if free.
func (g *consumerGroup) ownerEpoch(tp TopicPartition) int32 {
	if e, ok := g.owners[tp]; ok {
		return e
	}
	return -1
}

// put replaces member old (nil: none) by m, keeping the owners and the
// static members in step (ConsumerGroup.updateMember).
func (g *consumerGroup) put(old, m *consumerMember) {
	g.journal.member(g, m.id)
	g.forgetOwned(old)
	for _, tp := range m.assigned {
		g.owners[tp] = m.epoch
	}
	for _, tp := range m.revoking {
		g.owners[tp] = m.epoch
	}
	g.members[m.id] = m
	if m.instanceID != "" {
		g.static[m.instanceID] = m.id
	}
}

// remove drops member id with its target assignment (ConsumerGroup.removeMember
// and the tombstones of GroupMetadataManager.removeMember).
func (g *consumerGroup) remove(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	g.journal.member(g, id)
	g.journal.target(g, id)
	g.forgetOwned(m)
	delete(g.members, id)
	delete(g.target, id)
	delete(g.timers, id)
	if m.instanceID != "" && g.static[m.instanceID] == id {
		delete(g.static, m.instanceID)
	}
}

// forgetOwned drops the partition epochs m holds.
func (g *consumerGroup) forgetOwned(m *consumerMember) {
	if m == nil {
		return
	}
	for _, tp := range m.assigned {
		delete(g.owners, tp)
	}
	for _, tp := range m.revoking {
		delete(g.owners, tp)
	}
}

// subscribedTopics counts the subscribers of each topic name with member
// old replaced by m (either may be nil), a member's topics those of
// topicsOf (its names and what its regex matches):
// ModernGroup.computeSubscribedTopicNames.
func (g *consumerGroup) subscribedTopics(old, m *consumerMember, topicsOf func(*consumerMember) []string) map[string]int {
	out := map[string]int{}
	for _, x := range g.members {
		if old != nil && x.id == old.id {
			continue
		}
		for _, t := range topicsOf(x) {
			out[t]++
		}
	}
	if m != nil {
		for _, t := range topicsOf(m) {
			out[t]++
		}
	}
	return out
}

// subscriptionMetadata is computeSubscriptionMetadata: the topics of names
// that exist, with their ids and partition counts.
func subscriptionMetadata(names map[string]int, topics map[string]TopicMetadata) map[string]TopicMetadata {
	out := map[string]TopicMetadata{}
	for n := range names {
		if t, ok := topics[n]; ok {
			out[n] = t
		}
	}
	return out
}

// sameSubscription compares two subscription metadata maps.
func sameSubscription(a, b map[string]TopicMetadata) bool { return maps.Equal(a, b) }

// sortedMemberIDs returns the group's member ids, sorted.
func (g *consumerGroup) sortedMemberIDs() []string {
	return slices.Sorted(maps.Keys(g.members))
}

// equal reports whether two members hold the same state (the records
// Kafka writes for a member are written when it changed).
func (m *consumerMember) equal(o *consumerMember) bool {
	return m.id == o.id && m.instanceID == o.instanceID && m.rackID == o.rackID && m.clientID == o.clientID &&
		m.clientHost == o.clientHost && m.epoch == o.epoch && m.previousEpoch == o.previousEpoch && m.state == o.state &&
		m.rebalanceTimeoutMs == o.rebalanceTimeoutMs && m.serverAssignor == o.serverAssignor && m.regex == o.regex &&
		slices.Equal(m.topics, o.topics) && (m.topics == nil) == (o.topics == nil) &&
		slices.Equal(m.assigned, o.assigned) && slices.Equal(m.revoking, o.revoking)
}
