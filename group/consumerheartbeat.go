package group

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// heartbeat handles a ConsumerGroupHeartbeat (Kafka 4's
// GroupMetadataManager.consumerGroupHeartbeat, read in the trunk of late
// 2024): checks, then a leave, or a join or heartbeat in three steps:
//
//  1. the member is created or updated; a new subscription (or a change
//     of the subscribed topics' partitions) bumps the group epoch;
//  2. if the group epoch is past the target assignment's, a new target is
//     computed with the group's server-side assignor;
//  3. the member is moved towards its target ([reconcile]).
//
// The session timer restarts at each heartbeat that succeeds.
func (c *ConsumerGroupCoordinator) heartbeat(r ConsumerGroupHeartbeat) ConsumerGroupHeartbeatResponse {
	if code, msg := c.checkHeartbeat(r); code != None {
		return ConsumerGroupHeartbeatResponse{Error: code, Message: msg}
	}
	if r.MemberEpoch == LeaveGroupMemberEpoch || r.MemberEpoch == LeaveGroupStaticMemberEpoch {
		return c.leave(r)
	}
	return c.joinOrBeat(r)
}

// checkHeartbeat is throwIfConsumerGroupHeartbeatRequestIsInvalid.
func (c *ConsumerGroupCoordinator) checkHeartbeat(r ConsumerGroupHeartbeat) (ErrorCode, string) {
	switch {
	case r.GroupID == "":
		return InvalidRequest, "GroupId can't be empty."
	case r.MemberEpoch > 0 || r.MemberEpoch == LeaveGroupMemberEpoch:
		if r.MemberID == "" {
			return InvalidRequest, "MemberId can't be empty."
		}
	case r.MemberEpoch == JoinGroupMemberEpoch:
		switch {
		case r.RebalanceTimeoutMs == -1:
			return InvalidRequest, "RebalanceTimeoutMs must be provided in first request."
		case r.Owned == nil || len(r.Owned) > 0:
			return InvalidRequest, "TopicPartitions must be empty when (re-)joining."
		case len(r.SubscribedTopicNames) == 0 && (r.SubscribedTopicRegex == nil || *r.SubscribedTopicRegex == ""):
			return InvalidRequest, "SubscribedTopicNames or SubscribedTopicRegex must be set in first request."
		}
	case r.MemberEpoch == LeaveGroupStaticMemberEpoch:
		switch {
		case r.MemberID == "":
			return InvalidRequest, "MemberId can't be empty."
		case r.InstanceID == "":
			return InvalidRequest, "InstanceId can't be null."
		}
	default:
		return InvalidRequest, "MemberEpoch is invalid."
	}
	if r.SubscribedTopicRegex != nil {
		if _, err := compileTopicRegex(*r.SubscribedTopicRegex); err != nil {
			return InvalidRegularExpression, fmt.Sprintf("SubscribedTopicRegex `%s` is not a valid regular expression: %v.", *r.SubscribedTopicRegex, err)
		}
	}
	if r.ServerAssignor != "" && !slices.Contains(c.cfg.Assignors, r.ServerAssignor) {
		return UnsupportedAssignor, fmt.Sprintf("ServerAssignor %s is not supported. Supported assignors: %s.", r.ServerAssignor, joinNames(c.cfg.Assignors))
	}
	return None, ""
}

// joinOrBeat is the regular heartbeat (steps 1 to 3 above).
func (c *ConsumerGroupCoordinator) joinOrBeat(r ConsumerGroupHeartbeat) ConsumerGroupHeartbeatResponse {
	create := r.MemberEpoch == JoinGroupMemberEpoch
	g := c.groups[r.GroupID]
	if g == nil || g.dead {
		if !create {
			return ConsumerGroupHeartbeatResponse{Error: GroupIDNotFound, Message: fmt.Sprintf("Consumer group %s not found.", r.GroupID)}
		}
		g = newConsumerGroup(r.GroupID)
	}
	if c.cfg.MaxSize > 0 && len(g.members) >= c.cfg.MaxSize && (r.MemberID == "" || g.members[r.MemberID] == nil) {
		return ConsumerGroupHeartbeatResponse{Error: GroupMaxSizeReached,
			Message: fmt.Sprintf("The consumer group has reached its maximum capacity of %d members.", c.cfg.MaxSize)}
	}
	memberID := r.MemberID
	if memberID == "" {
		memberID = c.newMemberID(r.GroupID)
	}
	var member, replaced *consumerMember
	var code ErrorCode
	var msg string
	if r.InstanceID == "" {
		member, code, msg = dynamicMember(g, memberID, r, create)
	} else {
		member, replaced, code, msg = staticMember(g, memberID, r, create)
	}
	if code != None {
		return ConsumerGroupHeartbeatResponse{Error: code, Message: msg}
	}
	return c.apply(g, r, member, replaced)
}

// apply runs steps 1 to 3 for member (replacing the static member
// replaced, if any) and answers.
func (c *ConsumerGroupCoordinator) apply(g *consumerGroup, r ConsumerGroupHeartbeat, member, replaced *consumerMember) ConsumerGroupHeartbeatResponse {
	updated := updatedMember(member, r)
	old := g.members[member.id]
	if replaced != nil {
		old = replaced
	}
	bump := !updated.equal(member) && (!sameTopics(updated.topics, member.topics) || updated.regex != member.regex)
	epoch := g.groupEpoch
	subscription := subscriptionMetadata(g.subscribedTopics(old, updated, c.memberTopics), c.topics)
	if !sameSubscription(subscription, g.subscription) {
		bump = true
	}
	if bump {
		epoch++
	}
	targetEpoch, targets := g.assignmentEpoch, g.target
	if replaced != nil {
		targets = maps.Clone(g.target)
		targets[updated.id] = g.target[replaced.id]
		delete(targets, replaced.id)
	}
	if epoch > g.assignmentEpoch {
		var err error
		targets, err = c.targetAssignment(g, old, updated, subscription)
		if err != nil {
			return ConsumerGroupHeartbeatResponse{Error: UnknownServerError,
				Message: fmt.Sprintf("Failed to compute a new target assignment for epoch %d: %v", epoch, err)}
		}
		targetEpoch = epoch
	}
	reconciled := reconcile(updated, targetEpoch, targets[updated.id], r.Owned, g.ownerEpoch)

	if c.groups[g.id] == nil {
		c.groups[g.id] = g
	}
	if replaced != nil {
		g.remove(replaced.id)
	}
	g.groupEpoch, g.subscription = epoch, subscription
	if replaced != nil || targetEpoch != g.assignmentEpoch {
		g.journal.targets(g) // a new target map
	}
	g.target, g.assignmentEpoch = targets, targetEpoch
	g.put(g.members[reconciled.id], reconciled)
	t := g.timers[reconciled.id]
	if !reconciled.equal(updated) {
		t.rebalanceMs, t.rebalanceEpoch = 0, 0
		if reconciled.state == MemberUnrevokedPartitions {
			t.rebalanceMs, t.rebalanceEpoch = c.nowMs+int64(max(reconciled.rebalanceTimeoutMs, 0)), reconciled.epoch
		}
	}
	t.sessionMs = c.nowMs + int64(c.cfg.SessionTimeoutMs)
	g.timers[reconciled.id] = t

	resp := ConsumerGroupHeartbeatResponse{MemberID: reconciled.id, MemberEpoch: reconciled.epoch, HeartbeatIntervalMs: c.cfg.HeartbeatIntervalMs}
	full := r.MemberEpoch == JoinGroupMemberEpoch || (r.RebalanceTimeoutMs != -1 && r.SubscribedTopicNames != nil && r.Owned != nil)
	if full || !slices.Equal(member.assigned, reconciled.assigned) {
		resp.Assignment = append([]TopicPartition{}, reconciled.assigned...)
	}
	return resp
}

// updatedMember is member with what the heartbeat sent: the fields sent
// replace the member's, client.id and host always.
func updatedMember(member *consumerMember, r ConsumerGroupHeartbeat) *consumerMember {
	u := *member
	if r.InstanceID != "" {
		u.instanceID = r.InstanceID
	}
	if r.RackID != "" {
		u.rackID = r.RackID
	}
	if r.RebalanceTimeoutMs != -1 {
		u.rebalanceTimeoutMs = r.RebalanceTimeoutMs
	}
	if r.ServerAssignor != "" {
		u.serverAssignor = r.ServerAssignor
	}
	if r.SubscribedTopicNames != nil {
		u.topics = slices.Compact(slices.Sorted(slices.Values(r.SubscribedTopicNames)))
	}
	if r.SubscribedTopicRegex != nil {
		u.regex = *r.SubscribedTopicRegex
	}
	u.clientID, u.clientHost = r.ClientID, r.ClientHost
	return &u
}

func sameTopics(a, b []string) bool { return slices.Equal(a, b) }

// dynamicMember is getOrMaybeSubscribeDynamicConsumerGroupMember: the
// member of that id, a new one on a join, with its epoch checked.
func dynamicMember(g *consumerGroup, id string, r ConsumerGroupHeartbeat, create bool) (*consumerMember, ErrorCode, string) {
	m := g.members[id]
	if m == nil {
		if !create {
			return nil, UnknownMemberID, fmt.Sprintf("Member %s is not a member of group %s.", id, g.id)
		}
		return &consumerMember{id: id, rebalanceTimeoutMs: -1}, None, ""
	}
	if code, msg := checkMemberEpoch(m, r.MemberEpoch, r.Owned); code != None {
		return nil, code, msg
	}
	return m, None, ""
}

// staticMember is getOrMaybeSubscribeStaticConsumerGroupMember: on a join
// a new static member, or one that takes the place of the member holding
// the instance id if that one left with epoch -2 (replaced, copied under
// the new id at epoch 0); otherwise the member holding the instance id,
// which must be this one, with its epoch checked.
func staticMember(g *consumerGroup, id string, r ConsumerGroupHeartbeat, create bool) (member, replaced *consumerMember, code ErrorCode, msg string) {
	var existing *consumerMember
	if holder, ok := g.static[r.InstanceID]; ok {
		existing = g.members[holder]
	}
	if create {
		if existing == nil {
			if m := g.members[id]; m != nil {
				return m, nil, None, ""
			}
			return &consumerMember{id: id, rebalanceTimeoutMs: -1}, nil, None, ""
		}
		if existing.epoch != LeaveGroupStaticMemberEpoch {
			return nil, nil, UnreleasedInstanceID, fmt.Sprintf("Static member %s with instance id %s cannot join the group because the instance id is owned by %s member.",
				id, r.InstanceID, existing.id)
		}
		m := *existing
		m.id, m.epoch, m.previousEpoch = id, 0, 0
		return &m, existing, None, ""
	}
	switch {
	case existing == nil:
		return nil, nil, UnknownMemberID, fmt.Sprintf("Instance id %s is unknown.", r.InstanceID)
	case existing.id != id:
		return nil, nil, FencedInstanceID, fmt.Sprintf("Static member %s with instance id %s was fenced by member %s.", id, r.InstanceID, existing.id)
	}
	if code, msg := checkMemberEpoch(existing, r.MemberEpoch, r.Owned); code != None {
		return nil, nil, code, msg
	}
	return existing, nil, None, ""
}

// checkMemberEpoch is throwIfConsumerGroupMemberEpochIsInvalid (Kafka 4.1):
// an epoch ahead of the member's is fenced; one behind is fenced too,
// unless it is the previous epoch and the member owns only partitions it
// still has (the answer that bumped it may have been lost). A rejoin at
// epoch 0 of a member the group still holds at a later epoch is fenced:
// the member is taken back only once its session expired (KAFKA-19233
// accepts it at once, after 4.1).
func checkMemberEpoch(m *consumerMember, epoch int32, owned []TopicPartition) (ErrorCode, string) {
	switch {
	case epoch > m.epoch:
		return FencedMemberEpoch, fmt.Sprintf("The consumer group member has a greater member epoch (%d) than the one known by the group coordinator (%d). The member must abandon all its partitions and rejoin.", epoch, m.epoch)
	case epoch < m.epoch && (epoch != m.previousEpoch || !isSubset(owned, m.assigned)):
		return FencedMemberEpoch, fmt.Sprintf("The consumer group member has a smaller member epoch (%d) than the one known by the group coordinator (%d). The member must abandon all its partitions and rejoin.", epoch, m.epoch)
	}
	return None, ""
}

// isSubset reports whether every partition of owned is in assigned; a
// heartbeat that reports nothing is no subset.
func isSubset(owned, assigned []TopicPartition) bool {
	if owned == nil {
		return false
	}
	set := newPartitionSet(assigned)
	for _, tp := range owned {
		if !set[tp] {
			return false
		}
	}
	return true
}

// leave handles epoch -1 (leave) and -2 (a static member leaves for now):
// consumerGroupLeave.
func (c *ConsumerGroupCoordinator) leave(r ConsumerGroupHeartbeat) ConsumerGroupHeartbeatResponse {
	g := c.groups[r.GroupID]
	if g == nil || g.dead {
		return ConsumerGroupHeartbeatResponse{Error: GroupIDNotFound, Message: fmt.Sprintf("Consumer group %s not found.", r.GroupID)}
	}
	if r.InstanceID == "" {
		if g.members[r.MemberID] == nil {
			return ConsumerGroupHeartbeatResponse{Error: UnknownMemberID, Message: fmt.Sprintf("Member %s is not a member of group %s.", r.MemberID, g.id)}
		}
		c.fence(g, r.MemberID)
		return ConsumerGroupHeartbeatResponse{MemberID: r.MemberID, MemberEpoch: r.MemberEpoch}
	}
	holder, ok := g.static[r.InstanceID]
	switch {
	case !ok:
		return ConsumerGroupHeartbeatResponse{Error: UnknownMemberID, Message: fmt.Sprintf("Instance id %s is unknown.", r.InstanceID)}
	case holder != r.MemberID:
		return ConsumerGroupHeartbeatResponse{Error: FencedInstanceID,
			Message: fmt.Sprintf("Static member %s with instance id %s was fenced by member %s.", r.MemberID, r.InstanceID, holder)}
	}
	if r.MemberEpoch == LeaveGroupMemberEpoch {
		c.fence(g, holder)
		return ConsumerGroupHeartbeatResponse{MemberID: r.MemberID, MemberEpoch: r.MemberEpoch}
	}
	m := g.members[holder]
	left := *m
	left.epoch, left.revoking = LeaveGroupStaticMemberEpoch, []TopicPartition{}
	g.put(m, &left)
	return ConsumerGroupHeartbeatResponse{MemberID: holder, MemberEpoch: LeaveGroupStaticMemberEpoch}
}

// fence removes a member (it left, or its session or rebalance timeout
// expired) and bumps the group epoch: consumerGroupFenceMember. Its
// partitions are free at once; the target is recomputed at the next
// heartbeat of any member.
func (c *ConsumerGroupCoordinator) fence(g *consumerGroup, id string) {
	g.remove(id)
	g.subscription = subscriptionMetadata(g.subscribedTopics(nil, nil, c.memberTopics), c.topics)
	g.groupEpoch++
}

// newMemberID makes a member id for a v0 join without one: a Kafka Uuid
// printed as Uuid.toString does (base64url, no padding, never starting
// with '-'), drawn from the coordinator's own sequence so that the same
// requests give the same ids.
func (c *ConsumerGroupCoordinator) newMemberID(group string) string {
	for {
		c.nextID++
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], splitMix64(c.nextID^uint64(javaStringHash(group))))
		binary.BigEndian.PutUint64(b[8:], splitMix64(c.nextID*0x9E3779B97F4A7C15))
		if s := base64.RawURLEncoding.EncodeToString(b[:]); s[0] != '-' {
			return s
		}
	}
}

// splitMix64 is the SplitMix64 mixing function.
func splitMix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
