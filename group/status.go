package group

import "slices"

// GroupStatus is a plain snapshot of one group, for printing, JSON and
// cmp.Diff (kafka-consumer-groups --describe --state / --members).
type GroupStatus struct {
	// GroupID is the group id.
	GroupID string
	// State is the group's state.
	State State
	// Generation is the current generation id.
	Generation int32
	// ProtocolType is "consumer" for consumer groups.
	ProtocolType string
	// Protocol is the chosen assignor, "" outside a generation.
	Protocol string
	// Leader is the leader's member id.
	Leader string
	// Members are sorted by member id.
	Members []MemberStatus
}

// MemberStatus is one member as the coordinator sees it.
type MemberStatus struct {
	// MemberID is the member id.
	MemberID string
	// GroupInstanceID is set for static members.
	GroupInstanceID string
	// ClientID is client.id.
	ClientID string
	// ClientHost is the client's address ("/127.0.0.1"), "" for the
	// world's own members.
	ClientHost string
	// Protocol is its entry for the group's chosen assignor (Name "" outside
	// a generation): the subscription, and the metadata bytes it sent, if
	// it sent bytes (DescribeGroups shows them).
	Protocol Protocol
	// Assignment is what the leader gave it in the last SyncGroup.
	Assignment []TopicPartition
	// AssignmentData is the leader's assignment bytes for it, nil if the
	// leader gave partitions only.
	AssignmentData []byte
	// AwaitingJoin / AwaitingSync: a JoinGroup / SyncGroup of it is parked.
	AwaitingJoin, AwaitingSync bool
	// SessionDeadlineMs is when its session expires if nothing arrives.
	SessionDeadlineMs int64
}

// Group returns the status of group id, if the coordinator hosts it.
func (c *Coordinator) Group(id string) (GroupStatus, bool) {
	g, ok := c.groups[id]
	if !ok {
		return GroupStatus{}, false
	}
	s := GroupStatus{
		GroupID: g.id, State: g.state, Generation: g.generation, ProtocolType: g.protocolType,
		Protocol: g.protocolName, Leader: g.leader, Members: []MemberStatus{},
	}
	for _, mid := range g.sortedMemberIDs() {
		m := g.members[mid]
		s.Members = append(s.Members, MemberStatus{
			MemberID: m.id, GroupInstanceID: m.instanceID, ClientID: m.clientID, ClientHost: m.clientHost,
			Assignment: SortedPartitions(m.assignment), AssignmentData: slices.Clone(m.assignmentData),
			AwaitingJoin: m.awaitingJoin, AwaitingSync: m.awaitingSync,
			SessionDeadlineMs: m.heartbeatDeadlineMs,
		})
		if g.protocolName != "" {
			p := m.protocol(g.protocolName)
			p.Metadata = slices.Clone(p.Metadata)
			s.Members[len(s.Members)-1].Protocol = p
		}
	}
	return s, true
}

// Groups returns every hosted group's status, sorted by group id.
func (c *Coordinator) Groups() []GroupStatus {
	out := []GroupStatus{}
	for _, id := range sortedGroupIDs(c.groups) {
		s, _ := c.Group(id)
		out = append(out, s)
	}
	return out
}

// RebalanceProtocol is the protocol of the group's chosen assignor (the JSON
// "protocol" field: eager or cooperative). Unknown assignors count as eager.
func (s GroupStatus) RebalanceProtocol() RebalanceProtocol {
	if a, ok := Assignors()[s.Protocol]; ok {
		return a.Protocol()
	}
	return Eager
}
