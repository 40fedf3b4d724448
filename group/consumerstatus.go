package group

import (
	"maps"
	"slices"
)

// ConsumerGroupStatus is a plain snapshot of one consumer-protocol group
// (what ConsumerGroupDescribe answers), for printing, JSON and cmp.Diff.
type ConsumerGroupStatus struct {
	// GroupID is the group id.
	GroupID string
	// State is the group's state.
	State ConsumerGroupState
	// GroupEpoch moves with every change of the membership or the
	// subscriptions; AssignmentEpoch is the target assignment's epoch.
	GroupEpoch, AssignmentEpoch int32
	// AssignorName is the server-side assignor the group uses.
	AssignorName string
	// Members are sorted by member id.
	Members []ConsumerMemberStatus
}

// ConsumerMemberStatus is one member of a consumer-protocol group as the
// coordinator sees it.
type ConsumerMemberStatus struct {
	// MemberID, InstanceID (static members), RackID, ClientID and
	// ClientHost are the member's.
	MemberID, InstanceID, RackID, ClientID, ClientHost string
	// MemberEpoch is its epoch (-2: a static member that left for now).
	MemberEpoch int32
	// State is its reconciliation state.
	State ConsumerMemberState
	// SubscribedTopics are the names it subscribed to, sorted (not what
	// its regex matches).
	SubscribedTopics []string
	// SubscribedTopicRegex is its regex subscription, "" for none.
	SubscribedTopicRegex string
	// Assigned is what it may own now (ConsumerGroupDescribe's Assignment).
	Assigned []TopicPartition
	// Revoking are the partitions it must give up before its next epoch.
	Revoking []TopicPartition
	// Target is its target assignment.
	Target []TopicPartition
	// Pending are the target's partitions it does not have yet, because
	// another member still owns them: they come once released.
	Pending []TopicPartition
	// SessionDeadlineMs is when it is removed if nothing comes from it;
	// RebalanceDeadlineMs, when non-zero, when it is removed if it has not
	// revoked by then.
	SessionDeadlineMs, RebalanceDeadlineMs int64
}

// Group returns the status of group id, if the coordinator hosts it.
func (c *ConsumerGroupCoordinator) Group(id string) (ConsumerGroupStatus, bool) {
	g, ok := c.groups[id]
	if !ok || g.dead {
		return ConsumerGroupStatus{}, false
	}
	s := ConsumerGroupStatus{GroupID: g.id, State: g.state(), GroupEpoch: g.groupEpoch, AssignmentEpoch: g.assignmentEpoch,
		AssignorName: c.preferredAssignor(g, nil, nil), Members: []ConsumerMemberStatus{}}
	for _, id := range g.sortedMemberIDs() {
		m := g.members[id]
		t := g.timers[id]
		ms := ConsumerMemberStatus{MemberID: m.id, InstanceID: m.instanceID, RackID: m.rackID, ClientID: m.clientID, ClientHost: m.clientHost,
			MemberEpoch: m.epoch, State: m.state, SubscribedTopics: slices.Clone(m.topics), SubscribedTopicRegex: m.regex, Assigned: SortedPartitions(m.assigned),
			Revoking: SortedPartitions(m.revoking), Target: SortedPartitions(g.target[id]), SessionDeadlineMs: t.sessionMs}
		if ms.SubscribedTopics == nil {
			ms.SubscribedTopics = []string{}
		}
		ms.Pending = Difference(ms.Target, ms.Assigned)
		if m.state == MemberUnrevokedPartitions && m.epoch == t.rebalanceEpoch {
			ms.RebalanceDeadlineMs = t.rebalanceMs
		}
		s.Members = append(s.Members, ms)
	}
	return s, true
}

// Groups returns every hosted group's status, sorted by group id.
func (c *ConsumerGroupCoordinator) Groups() []ConsumerGroupStatus {
	out := []ConsumerGroupStatus{}
	for _, id := range slices.Sorted(maps.Keys(c.groups)) {
		if s, ok := c.Group(id); ok {
			out = append(out, s)
		}
	}
	return out
}
