package group

// join handles JoinGroup (GroupCoordinator.handleJoinGroup, 3.7).
func (c *Coordinator) join(from string, r JoinGroup) {
	fail := func(code ErrorCode) {
		c.respond(from, JoinGroupResponse{Error: code, MemberID: r.MemberID, Members: []MemberSubscription{}})
	}
	g := c.groups[r.GroupID]
	switch {
	case g != nil && g.state == Dead:
		// GroupCoordinator.handleJoinGroup (3.x): the group was just deleted
		// or moved; the member finds the coordinator again and rejoins.
		fail(CoordinatorNotAvailable)
		return
	case r.SessionTimeoutMs < c.cfg.GroupMinSessionTimeoutMs || r.SessionTimeoutMs > c.cfg.GroupMaxSessionTimeoutMs:
		fail(InvalidSessionTimeout)
		return
	}
	if g == nil && r.MemberID != "" {
		// A member id the coordinator never gave (or gave before it moved):
		// Kafka answers UNKNOWN_MEMBER_ID without creating the group
		// (GroupCoordinator.handleJoinGroup creates it only for an unknown
		// member id).
		fail(UnknownMemberID)
		return
	}
	if g == nil {
		g = c.newGroup(r.GroupID)
	}
	if !g.supportsProtocols(r.ProtocolType, r.Protocols) && !c.isOnlyMember(g, r) {
		fail(InconsistentGroupProtocol)
		return
	}
	switch {
	case r.MemberID == "" && r.GroupInstanceID != "":
		c.joinStaticUnknown(from, g, r)
	case r.MemberID == "":
		c.joinNewDynamic(from, g, r, fail)
	default:
		c.joinKnown(from, g, r, fail)
	}
}

// isOnlyMember: a lone member may change its own assignors freely.
func (c *Coordinator) isOnlyMember(g *classicGroup, r JoinGroup) bool {
	_, ok := g.members[r.MemberID]
	return ok && len(g.members) == 1 && len(r.Protocols) > 0
}

// joinNewDynamic answers MEMBER_ID_REQUIRED with a fresh id (KIP-394): the
// member must join again with it.
func (c *Coordinator) joinNewDynamic(from string, g *classicGroup, r JoinGroup, fail func(ErrorCode)) {
	if c.cfg.GroupMaxSize > 0 && len(g.members)+len(g.pending) >= c.cfg.GroupMaxSize {
		fail(GroupMaxSizeReached)
		return
	}
	prefix := r.ClientID
	if prefix == "" {
		prefix = "consumer"
	}
	id := c.newMemberID(g, prefix)
	if r.NoMemberIDRequired {
		c.addMember(from, g, r, id)
		return
	}
	g.pending[id] = c.nowMs + int64(r.SessionTimeoutMs)
	c.respond(from, JoinGroupResponse{Error: MemberIDRequired, MemberID: id, Members: []MemberSubscription{}})
}

// joinKnown handles a JoinGroup carrying a member id: a pending id becomes a
// member; a known member rejoins.
func (c *Coordinator) joinKnown(from string, g *classicGroup, r JoinGroup, fail func(ErrorCode)) {
	if r.GroupInstanceID != "" {
		if owner, ok := g.static[r.GroupInstanceID]; ok && owner != r.MemberID {
			fail(FencedInstanceID)
			return
		}
	}
	if _, ok := g.pending[r.MemberID]; ok {
		delete(g.pending, r.MemberID)
		c.addMember(from, g, r, r.MemberID)
		return
	}
	m, ok := g.members[r.MemberID]
	if !ok {
		fail(UnknownMemberID)
		return
	}
	c.rejoin(from, g, m, r)
}

// addMember adds a member with a parked JoinGroup and moves the group toward
// (or through) a rebalance.
func (c *Coordinator) addMember(from string, g *classicGroup, r JoinGroup, id string) {
	m := &member{id: id, instanceID: r.GroupInstanceID, newJoinDeadlineMs: c.nowMs + newMemberJoinTimeoutMs}
	g.putMember(id, m)
	if r.GroupInstanceID != "" {
		g.static[r.GroupInstanceID] = id
	}
	if g.leader == "" {
		g.leader = id
		g.protocolType = r.ProtocolType
	}
	c.updateMember(m, from, r)
	// Only the very first rebalance extends its delay for newcomers (Kafka
	// checks generation 0).
	g.newMemberAdded = g.generation == 0
	if g.state != PreparingRebalance {
		c.prepareRebalance(g)
	}
	c.maybeCompleteJoin(g)
}

func (c *Coordinator) updateMember(m *member, from string, r JoinGroup) {
	// The instance id is the member's for life (Kafka's member field is
	// final); a rejoin cannot change it.
	m.clientID, m.clientHost = r.ClientID, r.ClientHost
	m.sessionTimeoutMs, m.rebalanceTimeoutMs = r.SessionTimeoutMs, r.RebalanceTimeoutMs
	m.protocols = r.Protocols
	if m.awaitingJoin && m.joinFrom != from {
		// A newer JoinGroup replaces a parked one from another address.
		c.respond(m.joinFrom, JoinGroupResponse{Error: UnknownMemberID, MemberID: m.id, Members: []MemberSubscription{}})
	}
	m.awaitingJoin, m.joinFrom = true, from
	m.heartbeatDeadlineMs = c.nowMs + int64(r.SessionTimeoutMs)
}

// rejoin handles a known member's JoinGroup. In PreparingRebalance it is
// parked. In CompletingRebalance and Stable, the same metadata gets the
// current generation back at once (a follower that lost its answer), while
// new metadata, or the dynamic leader rejoining in Stable, starts a rebalance.
func (c *Coordinator) rejoin(from string, g *classicGroup, m *member, r JoinGroup) {
	same := sameProtocols(m.protocols, r.Protocols)
	switch {
	case g.state == PreparingRebalance:
		c.updateMember(m, from, r)
		c.maybeCompleteJoin(g)
	case same && (g.state == CompletingRebalance || (g.state == Stable && m.id != g.leader)):
		m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
		c.respond(from, c.joinResponse(g, m, false))
	default:
		c.updateMember(m, from, r)
		c.prepareRebalance(g)
		c.maybeCompleteJoin(g)
	}
}

// joinStaticUnknown handles a static member joining without a member id
// (KIP-345): a known instance id gets a new member id, the old one is fenced,
// and in a Stable group whose chosen assignor stays the same there is no
// rebalance: the member gets the current generation and, at SyncGroup, its
// old assignment (a static leader is told to skip the assignment, KIP-814).
func (c *Coordinator) joinStaticUnknown(from string, g *classicGroup, r JoinGroup) {
	oldID, known := g.static[r.GroupInstanceID]
	old := g.members[oldID]
	if !known || old == nil {
		if c.cfg.GroupMaxSize > 0 && len(g.members)+len(g.pending) >= c.cfg.GroupMaxSize {
			c.respond(from, JoinGroupResponse{Error: GroupMaxSizeReached, Members: []MemberSubscription{}})
			return
		}
		c.addMember(from, g, r, c.newMemberID(g, r.GroupInstanceID))
		return
	}
	newID := c.newMemberID(g, r.GroupInstanceID)
	c.fence(old)
	prev := staticReplacement{oldID: oldID, newID: newID, from: from, oldLeader: g.leader,
		oldProtocols: old.protocols, oldRebalanceTimeoutMs: old.rebalanceTimeoutMs, oldSessionTimeoutMs: old.sessionTimeoutMs}
	c.replaceMemberID(g, old, oldID, newID)
	if g.state == Stable {
		c.updateMember(old, from, r)
		if g.selectProtocol() == g.protocolName {
			// Kafka compares only the assignor the group would pick: a
			// restarted static member's subscription may differ (no owned
			// partitions, generation -1) without a rebalance. The new
			// member id is stored first, and answered once stored
			// (updateStaticMemberAndRebalance).
			c.storeGroup(g, storeWait{kind: storeStatic, static: prev})
			return
		}
		c.prepareRebalance(g)
		return
	}
	c.updateMember(old, from, r)
	if g.state != PreparingRebalance {
		c.prepareRebalance(g)
	}
	c.maybeCompleteJoin(g)
}

// fence answers the parked requests of a member whose instance id was taken
// over with FENCED_INSTANCE_ID.
func (c *Coordinator) fence(m *member) {
	if m.awaitingJoin {
		c.respond(m.joinFrom, JoinGroupResponse{Error: FencedInstanceID, MemberID: m.id, Members: []MemberSubscription{}})
		m.awaitingJoin, m.joinFrom = false, ""
	}
	if m.awaitingSync {
		c.respond(m.syncFrom, SyncGroupResponse{Error: FencedInstanceID, Assignment: []TopicPartition{}})
		m.awaitingSync, m.syncFrom = false, ""
	}
}
