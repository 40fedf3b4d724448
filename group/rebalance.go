package group

// prepareRebalance moves g to PreparingRebalance. Followers parked in
// SyncGroup are told REBALANCE_IN_PROGRESS. From Empty the join phase is the
// delayed initial one; otherwise it lasts the largest rebalance timeout.
func (c *Coordinator) prepareRebalance(g *classicGroup) {
	if g.state == CompletingRebalance {
		for _, id := range g.sortedMemberIDs() {
			m := g.members[id]
			if m.awaitingSync {
				c.respond(m.syncFrom, SyncGroupResponse{Error: RebalanceInProgress, Assignment: []TopicPartition{}})
				m.awaitingSync, m.syncFrom = false, ""
			}
		}
	}
	for _, m := range g.members {
		m.pendingSync = false
	}
	timeout := g.rebalanceTimeoutMs()
	if g.state == Empty {
		delay := min(int64(c.cfg.GroupInitialRebalanceDelayMs), timeout)
		g.initialJoin, g.newMemberAdded = true, false
		g.initialRemainingMs = max(timeout-delay, 0)
		g.joinDeadlineMs = c.nowMs + delay
	} else {
		g.initialJoin = false
		g.joinDeadlineMs = c.nowMs + timeout
	}
	c.transition(g, PreparingRebalance)
}

// maybeCompleteJoin ends the join phase early when everyone is in (never
// during the delayed initial join, which always waits).
func (c *Coordinator) maybeCompleteJoin(g *classicGroup) {
	if g.state == PreparingRebalance && !g.initialJoin && g.allJoined() {
		c.completeJoin(g)
	}
}

// completeJoin ends the join phase: members that did not rejoin are removed,
// the generation goes up by one, and every joined member gets its
// JoinGroup answer (the leader with everyone's subscriptions).
func (c *Coordinator) completeJoin(g *classicGroup) {
	for _, id := range g.sortedMemberIDs() {
		if !g.members[id].awaitingJoin {
			c.removeMember(g, id)
		}
	}
	g.pending = map[string]int64{}
	g.generation++
	g.initialJoin = false
	if len(g.members) == 0 {
		// GroupCoordinator.onCompleteJoin stores the empty group, and
		// nothing waits for it.
		g.protocolName, g.leader = "", ""
		c.transition(g, Empty)
		g.emptySinceMs = c.nowMs
		c.storeGroup(g, storeWait{})
		return
	}
	g.protocolName = g.selectProtocol()
	ids := g.sortedMemberIDs()
	if _, ok := g.members[g.leader]; !ok {
		g.leader = ids[0]
	}
	c.transition(g, CompletingRebalance)
	g.syncDeadlineMs = c.nowMs + g.rebalanceTimeoutMs()
	for _, id := range ids {
		m := g.members[id]
		c.respond(m.joinFrom, c.joinResponse(g, m, false))
		m.awaitingJoin, m.joinFrom = false, ""
		m.pendingSync = true
		m.newJoinDeadlineMs = 0
		m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
	}
}

// joinResponse is the current generation's JoinGroup answer for m.
func (c *Coordinator) joinResponse(g *classicGroup, m *member, skipAssignment bool) JoinGroupResponse {
	r := JoinGroupResponse{
		GenerationID: g.generation, ProtocolName: g.protocolName, ProtocolType: g.protocolType, Leader: g.leader,
		MemberID: m.id, SkipAssignment: skipAssignment, Members: []MemberSubscription{},
	}
	if m.id == g.leader && !skipAssignment {
		for _, id := range g.mapOrderMemberIDs() {
			o := g.members[id]
			p := o.protocol(g.protocolName)
			r.Members = append(r.Members, MemberSubscription{MemberID: id, GroupInstanceID: o.instanceID, Subscription: p.Subscription, Metadata: p.Metadata})
		}
	}
	return r
}

// removeMember drops a member: a parked JoinGroup or SyncGroup of it is
// answered UNKNOWN_MEMBER_ID, and a new leader is picked if it led.
func (c *Coordinator) removeMember(g *classicGroup, id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	if m.awaitingJoin {
		c.respond(m.joinFrom, JoinGroupResponse{Error: UnknownMemberID, MemberID: id, Members: []MemberSubscription{}})
	}
	if m.awaitingSync {
		c.respond(m.syncFrom, SyncGroupResponse{Error: UnknownMemberID, Assignment: []TopicPartition{}})
	}
	g.deleteMember(id)
	if m.instanceID != "" && g.static[m.instanceID] == id {
		delete(g.static, m.instanceID)
	}
	if g.leader == id {
		g.leader = ""
		if ids := g.sortedMemberIDs(); len(ids) > 0 {
			g.leader = ids[0]
		}
	}
}

// removeAndRebalance removes a member (leave or session expiry) and moves
// the group on: a rebalance from Stable or CompletingRebalance, maybe the end
// of the join phase from PreparingRebalance.
func (c *Coordinator) removeAndRebalance(g *classicGroup, id string) {
	c.removeMember(g, id)
	switch g.state {
	case Stable, CompletingRebalance:
		c.prepareRebalance(g)
		// Kafka tries to complete the new join phase at once
		// (joinPurgatory.tryCompleteElseWatch): with no member left the
		// group is Empty now, not after the rebalance timeout.
		if len(g.members) == 0 {
			c.maybeCompleteJoin(g)
		}
	case PreparingRebalance:
		c.maybeCompleteJoin(g)
	}
}

// expire fires g's deadlines at the current time.
func (c *Coordinator) expire(g *classicGroup) {
	for id, deadline := range g.pending {
		if c.nowMs >= deadline {
			delete(g.pending, id)
		}
	}
	for _, id := range g.sortedMemberIDs() {
		m := g.members[id]
		if m == nil {
			continue // removed while an earlier removal completed the join
		}
		expired := !m.awaitingJoin && !m.awaitingSync && c.nowMs >= m.heartbeatDeadlineMs
		stuckNew := m.awaitingJoin && m.newJoinDeadlineMs > 0 && c.nowMs >= m.newJoinDeadlineMs
		if expired || stuckNew {
			c.removeAndRebalance(g, id)
		}
	}
	if g.state == PreparingRebalance && c.nowMs >= g.joinDeadlineMs {
		c.endJoinPhase(g)
	}
	if (g.state == CompletingRebalance || g.state == Stable) && c.nowMs >= g.syncDeadlineMs {
		c.expirePendingSync(g)
	}
	c.maybeCompleteJoin(g)
}

// endJoinPhase handles the join deadline: the delayed initial join extends
// itself while new members keep arriving (Kafka's InitialDelayedJoin), else
// the phase completes without the members that did not rejoin, provided at
// least one did.
func (c *Coordinator) endJoinPhase(g *classicGroup) {
	if g.initialJoin && g.newMemberAdded && g.initialRemainingMs > 0 {
		delay := min(int64(c.cfg.GroupInitialRebalanceDelayMs), g.initialRemainingMs)
		g.newMemberAdded = false
		g.initialRemainingMs -= delay
		g.joinDeadlineMs = c.nowMs + delay
		return
	}
	if len(g.members) > 0 && !g.anyJoined() {
		// Nobody rejoined, so there is no leader to elect: wait another
		// rebalance timeout and let sessions expire (KAFKA-8220, 2.3+)
		// instead of emptying the group.
		g.joinDeadlineMs = c.nowMs + g.rebalanceTimeoutMs()
		return
	}
	c.completeJoin(g)
}

// expirePendingSync removes members that joined the current generation but
// never sent SyncGroup within the rebalance timeout (KAFKA-12890, 2021),
// and rebalances without them.
func (c *Coordinator) expirePendingSync(g *classicGroup) {
	removed := false
	for _, id := range g.sortedMemberIDs() {
		if g.members[id].pendingSync {
			c.removeMember(g, id)
			removed = true
		}
	}
	if removed && g.state != Dead {
		if len(g.members) == 0 {
			c.transition(g, PreparingRebalance)
			c.completeJoin(g)
			return
		}
		c.prepareRebalance(g)
	}
}
