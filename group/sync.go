package group

// sync handles SyncGroup: followers wait for the leader; the leader's
// assignment moves the group to Stable and answers everyone.
func (c *Coordinator) sync(from string, r SyncGroup) {
	fail := func(code ErrorCode) {
		c.respond(from, SyncGroupResponse{Error: code, Assignment: []TopicPartition{}})
	}
	g := c.groups[r.GroupID]
	if code := c.validateMember(g, r.MemberID, r.GroupInstanceID, r.GenerationID); code != None {
		fail(code)
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
		c.respond(from, SyncGroupResponse{Assignment: SortedPartitions(m.assignment)})
	case CompletingRebalance:
		m.pendingSync = false
		m.awaitingSync, m.syncFrom = true, from
		m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
		if r.MemberID == g.leader {
			c.applyAssignment(g, r.Assignments)
		}
	}
}

// applyAssignment stores the leader's assignment (members it left out get
// none), makes the group Stable and answers every parked SyncGroup.
func (c *Coordinator) applyAssignment(g *classicGroup, assignments []MemberAssignment) {
	given := map[string][]TopicPartition{}
	for _, a := range assignments {
		given[a.MemberID] = append(given[a.MemberID], a.Partitions...)
	}
	g.state = Stable
	for _, id := range g.sortedMemberIDs() {
		m := g.members[id]
		m.assignment = SortedPartitions(given[id])
		if m.awaitingSync {
			c.respond(m.syncFrom, SyncGroupResponse{Assignment: SortedPartitions(m.assignment)})
			m.awaitingSync, m.syncFrom = false, ""
		}
	}
}

// validateMember is the common check of SyncGroup, Heartbeat and
// OffsetCommit: known group and member, instance id not taken over, current
// generation. Kafka checks in this order.
func (c *Coordinator) validateMember(g *classicGroup, memberID, instanceID string, generation int32) ErrorCode {
	if g == nil || g.state == Dead {
		return UnknownMemberID
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
