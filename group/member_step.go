package group

import "fmt"

// Step handles the coordinator's answer to one of the member's requests.
func (m *Member) Step(resp Response) error {
	if m.state == Left {
		return nil
	}
	switch r := resp.(type) {
	case JoinGroupResponse:
		m.onJoin(r)
	case SyncGroupResponse:
		m.onSync(r)
	case HeartbeatResponse:
		m.onGroupError(r.Error)
	case OffsetCommitResponse:
		if r.Error != None {
			m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets by %q: %w", len(r.Offsets), m.memberID, r.Error))
			m.onGroupError(r.Error)
		}
		m.onCommitAnswer(r)
	case OffsetFetchResponse:
		if r.Error != None {
			m.ready.Errors = append(m.ready.Errors, fmt.Errorf("offset fetch by %q: %w", m.memberID, r.Error))
		}
		m.ready.Fetched = append(m.ready.Fetched, r.Offsets...)
	case LeaveGroupResponse:
	default:
		return fmt.Errorf("member %q: %T: %w", m.memberID, resp, ErrUnknownResponse)
	}
	return nil
}

// onJoin handles the JoinGroup answer: a new id to join with, the start of
// a generation (the leader assigns), or an error to recover from.
func (m *Member) onJoin(r JoinGroupResponse) {
	if m.state != Joining {
		return
	}
	switch r.Error {
	case None:
	case MemberIDRequired:
		m.memberID = r.MemberID
		m.sendJoin()
		return
	case UnknownMemberID:
		m.reset(true)
		m.sendJoin()
		return
	default:
		m.onGroupError(r.Error)
		if m.state == Joining {
			m.state = Unjoined
			m.needsRejoin = true
		}
		return
	}
	m.memberID, m.generation, m.leader = r.MemberID, r.GenerationID, r.Leader
	m.assignedWith = nil
	m.state = Syncing
	m.sentMs = m.nowMs
	sync := SyncGroup{GroupID: m.cfg.GroupID, GenerationID: r.GenerationID, MemberID: r.MemberID, GroupInstanceID: m.cfg.GroupInstanceID,
		ProtocolType: "consumer", ProtocolName: r.ProtocolName}
	if r.Leader == r.MemberID && !r.SkipAssignment {
		sync.Assignments = m.assign(r.ProtocolName, r.Members)
	}
	m.send(sync)
}

// assign runs the chosen assignor over the members' subscriptions.
func (m *Member) assign(protocol string, members []MemberSubscription) []MemberAssignment {
	var a Assignor
	for _, c := range m.cfg.Assignors {
		if c.Name() == protocol {
			a = c
		}
	}
	out := []MemberAssignment{}
	if a == nil {
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("leader %q: assignor %q: %w", m.memberID, protocol, InconsistentGroupProtocol))
		return out
	}
	m.assignedWith = m.subscribedCounts()
	// The assignor meets the members in the order of the Java consumer's
	// HashMap of subscriptions (ConsumerCoordinator.onLeaderElected), not
	// sorted: see javaMapOrder.
	result := a.Assign(javaMapOrder(members), m.metadata)
	for _, ms := range normalizedMembers(members) {
		out = append(out, MemberAssignment{MemberID: ms.MemberID, Partitions: result[ms.MemberID]})
	}
	return out
}

// onSync handles the SyncGroup answer: the new assignment. An eager member
// owned nothing and now owns it all. A cooperative member adds what is new
// and revokes what it no longer has, then must rejoin.
func (m *Member) onSync(r SyncGroupResponse) {
	if m.state != Syncing {
		return
	}
	if r.Error != None {
		m.onGroupError(r.Error)
		if m.state == Syncing {
			m.state = Unjoined
			m.needsRejoin = true
		}
		return
	}
	assigned := SortedPartitions(r.Assignment)
	m.lastAssignment = distinctPartitions(r.Assignment)
	added := Difference(assigned, m.owned)
	revoked := Difference(m.owned, assigned)
	m.owned = SortedPartitions(append(m.owned, added...))
	m.state = MemberStable
	m.lastBeatMs = m.nowMs
	m.ready.Assigned = append(m.ready.Assigned, added...)
	if len(revoked) > 0 {
		m.startRevoke(revoked)
	}
}

// onGroupError reacts to an error code from any answer.
func (m *Member) onGroupError(code ErrorCode) {
	switch code {
	case None:
	case RebalanceInProgress:
		// Only news to a member that is not already rebalancing: a heartbeat
		// sent just before its JoinGroup is answered after it (Kafka ignores
		// it too unless the member is STABLE).
		if m.state == MemberStable || m.state == Revoking {
			m.needsRejoin = true
		}
	case CoordinatorNotAvailable, NotCoordinator, CoordinatorLoadInProgress:
		// The client marks the coordinator unknown and finds it again for
		// its next request; a heartbeat or commit answered so does not
		// rejoin (Kafka 3.7's HeartbeatResponseHandler and
		// OffsetCommitResponseHandler). A JoinGroup or SyncGroup answered so
		// is retried (onJoin, onSync).
	case IllegalGeneration:
		m.reset(false)
	case UnknownMemberID:
		m.reset(true)
	case FencedInstanceID, InconsistentGroupProtocol, InvalidSessionTimeout, GroupMaxSizeReached, InvalidGroupID:
		// Fatal in the Java consumer: the application gets the exception.
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("member %q (instance %q): %w", m.memberID, m.cfg.GroupInstanceID, code))
		m.reset(false)
		m.state = Left
	default:
		m.needsRejoin = true
	}
}
