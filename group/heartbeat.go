package group

// heartbeat handles Heartbeat: it refreshes the member's session and tells it
// whether a rebalance is under way. In CompletingRebalance the answer is
// NONE, as in Kafka's coordinator since 2.x ("consumers may start sending
// heartbeats after the join-group response").
func (c *Coordinator) heartbeat(from string, r Heartbeat) {
	g := c.groups[r.GroupID]
	code := c.validateMember(g, r.MemberID, r.GroupInstanceID, r.GenerationID)
	if code == None {
		m := g.members[r.MemberID]
		switch g.state {
		case Empty:
			code = UnknownMemberID
		case PreparingRebalance:
			m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
			code = RebalanceInProgress
		default:
			m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
		}
	}
	c.respond(from, HeartbeatResponse{Error: code})
}

// leave handles LeaveGroup: the member goes at once and the group
// rebalances. With a group.instance.id the static member is removed by
// instance (admin removal); a member id that no longer owns the instance id
// is fenced.
func (c *Coordinator) leave(from string, r LeaveGroup) {
	g := c.groups[r.GroupID]
	switch {
	case g == nil:
		c.respond(from, LeaveGroupResponse{Error: UnknownMemberID})
		return
	case g.state == Dead:
		// GroupCoordinator.handleLeaveGroup (3.x).
		c.respond(from, LeaveGroupResponse{Error: CoordinatorNotAvailable})
		return
	}
	id := r.MemberID
	if r.GroupInstanceID != "" {
		owner, ok := g.static[r.GroupInstanceID]
		switch {
		case !ok:
			c.respond(from, LeaveGroupResponse{Error: UnknownMemberID})
			return
		case id != "" && owner != id:
			c.respond(from, LeaveGroupResponse{Error: FencedInstanceID})
			return
		}
		id = owner
	}
	if _, ok := g.pending[id]; ok {
		delete(g.pending, id)
		c.respond(from, LeaveGroupResponse{})
		c.maybeCompleteJoin(g)
		return
	}
	if _, ok := g.members[id]; !ok {
		c.respond(from, LeaveGroupResponse{Error: UnknownMemberID})
		return
	}
	c.respond(from, LeaveGroupResponse{})
	c.removeAndRebalance(g, id)
}
