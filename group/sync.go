package group

import "slices"

// sync handles SyncGroup: followers wait for the leader; the leader's
// assignment moves the group to Stable and answers everyone. The checks are
// GroupCoordinator.validateSyncGroup's (3.7): a Dead group answers
// COORDINATOR_NOT_AVAILABLE, then the member, the generation, and a protocol
// type or name other than the group's INCONSISTENT_GROUP_PROTOCOL.
func (c *Coordinator) sync(from string, r SyncGroup) {
	fail := func(code ErrorCode) {
		c.respond(from, SyncGroupResponse{Error: code, Assignment: []TopicPartition{}})
	}
	g := c.groups[r.GroupID]
	if code := c.validateMember(g, r.MemberID, r.GroupInstanceID, r.GenerationID); code != None {
		fail(code)
		return
	}
	if r.ProtocolType != "" && r.ProtocolType != g.protocolType || r.ProtocolName != "" && r.ProtocolName != g.protocolName {
		fail(InconsistentGroupProtocol)
		return
	}
	m := g.members[r.MemberID]
	switch g.state {
	case Empty:
		fail(UnknownMemberID)
	case PreparingRebalance:
		fail(RebalanceInProgress)
	case Stable:
		m.pendingSync = false
		m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
		c.respond(from, syncAnswer(g, m))
	case CompletingRebalance:
		m.pendingSync = false
		m.awaitingSync, m.syncFrom = true, from
		m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
		if r.MemberID == g.leader {
			// The group is stored with the leader's assignment, and goes
			// Stable only once that append succeeds (GroupStored), as in
			// Kafka 3.7's GroupCoordinator.doSyncGroup.
			assignments := slices.Clone(r.Assignments)
			c.storeGroup(g, storeWait{kind: storeSync, assignments: assignments})
		}
	}
}

// applyAssignment applies the leader's stored assignment (members it left
// out get none), makes the group Stable and answers every parked
// SyncGroup. Each
// member's partitions keep the leader's order: Kafka's coordinator stores
// the assignment as opaque bytes, and the eager sticky assignor's next
// round depends on that order.
func (c *Coordinator) applyAssignment(g *classicGroup, assignments []MemberAssignment) {
	given, data := leaderAssignment(assignments)
	c.transition(g, Stable)
	for _, id := range g.sortedMemberIDs() {
		m := g.members[id]
		m.assignment = distinctPartitions(given[id])
		m.assignmentData = data[id]
		if _, ok := given[id]; !ok {
			m.assignmentData = []byte{} // left out: Kafka's empty assignment (GroupCoordinator.doSyncGroup)
		}
		if m.awaitingSync {
			c.respond(m.syncFrom, syncAnswer(g, m))
			m.awaitingSync, m.syncFrom = false, ""
		}
	}
}

// validateMember is the common check of SyncGroup, Heartbeat and
// OffsetCommit: known group and member, instance id not taken over, current
// generation. Kafka checks in this order. A Dead group (deleted, or moved to
// another coordinator) answers COORDINATOR_NOT_AVAILABLE so that the member
// looks the coordinator up again (3.x's GroupCoordinator.validateSyncGroup,
// validateHeartbeat, validateOffsetCommit; 2.0 answered UNKNOWN_MEMBER_ID);
// an unknown group answers UNKNOWN_MEMBER_ID.
func (c *Coordinator) validateMember(g *classicGroup, memberID, instanceID string, generation int32) ErrorCode {
	switch {
	case g == nil:
		return UnknownMemberID
	case g.state == Dead:
		return CoordinatorNotAvailable
	}
	if instanceID != "" {
		if owner, ok := g.static[instanceID]; ok && owner != memberID {
			return FencedInstanceID
		}
	}
	if _, ok := g.members[memberID]; !ok {
		return UnknownMemberID
	}
	if generation != g.generation {
		return IllegalGeneration
	}
	return None
}

// syncAnswer is m's SyncGroup answer in a Stable group.
func syncAnswer(g *classicGroup, m *member) SyncGroupResponse {
	return SyncGroupResponse{Assignment: slices.Clone(m.assignment), Data: slices.Clone(m.assignmentData),
		ProtocolType: g.protocolType, ProtocolName: g.protocolName}
}
