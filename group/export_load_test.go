package group

// QuietForLoad reports whether everything coordinator c holds of group id
// is in the group's latest stored record, as a test of loading needs it:
// the group is Stable or Empty, no member waits in a JoinGroup or a
// SyncGroup or has yet to sync, no handed-out member id is unused, and no
// store is in flight.
func QuietForLoad(c *Coordinator, id string) bool {
	g := c.groups[id]
	if g == nil || g.state != Stable && g.state != Empty || len(g.pending) > 0 || len(c.stores) > 0 {
		return false
	}
	for _, m := range g.members {
		if m.awaitingJoin || m.awaitingSync || m.pendingSync {
			return false
		}
	}
	return true
}

// CopyMemberIDCounters gives each group of dst the member id counter of
// src's group of the same id: what a record does not hold (Kafka's member
// ids are random UUIDs), so that two coordinators hand out the same ids.
func CopyMemberIDCounters(dst, src *Coordinator) {
	for id, g := range dst.groups {
		if s := src.groups[id]; s != nil {
			g.nextSeq = s.nextSeq
		}
	}
}

// HeldConsumerGroup is everything a consumer group coordinator holds of a
// group but its timers, for a test to compare two coordinators.
type HeldConsumerGroup struct {
	GroupEpoch, AssignmentEpoch int32
	Subscription                map[string]TopicMetadata
	Target                      map[string][]TopicPartition
	Owners                      map[TopicPartition]int32
	Static                      map[string]string
	Members                     map[string]HeldConsumerMember
}

// HeldConsumerMember is a member's every field.
type HeldConsumerMember struct {
	ID, InstanceID, RackID, ClientID, ClientHost string
	Epoch, PreviousEpoch                         int32
	State                                        ConsumerMemberState
	RebalanceTimeoutMs                           int32
	ServerAssignor, Regex                        string
	Topics                                       []string
	Assigned, Revoking                           []TopicPartition
}

// HeldConsumerGroups returns what c holds of each group (not deleted).
func HeldConsumerGroups(c *ConsumerGroupCoordinator) map[string]HeldConsumerGroup {
	out := map[string]HeldConsumerGroup{}
	for id, g := range c.groups {
		if g.dead {
			continue
		}
		h := HeldConsumerGroup{GroupEpoch: g.groupEpoch, AssignmentEpoch: g.assignmentEpoch, Subscription: g.subscription,
			Target: g.target, Owners: g.owners, Static: g.static, Members: map[string]HeldConsumerMember{}}
		for mid, m := range g.members {
			h.Members[mid] = HeldConsumerMember{ID: m.id, InstanceID: m.instanceID, RackID: m.rackID, ClientID: m.clientID,
				ClientHost: m.clientHost, Epoch: m.epoch, PreviousEpoch: m.previousEpoch, State: m.state,
				RebalanceTimeoutMs: m.rebalanceTimeoutMs, ServerAssignor: m.serverAssignor, Regex: m.regex, Topics: m.topics,
				Assigned: m.assigned, Revoking: m.revoking}
		}
		out[id] = h
	}
	return out
}
