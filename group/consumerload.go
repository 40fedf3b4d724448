package group

import (
	"maps"
	"slices"
)

// LoadGroups takes over the consumer-protocol groups of one
// __consumer_offsets partition from its records, given in log order, as
// Kafka 4's coordinator does when it becomes the partition's leader: every
// record is replayed (GroupMetadataManager.replay, leniently: a record
// Kafka would reject as out of order is applied as far as it goes), then
// each group that remains is installed (onLoaded): its group and target
// assignment epochs, subscription metadata, target assignment and members
// with their epochs, states and partitions as stored; each member's
// session starts now, and a member still revoking gets its rebalance
// timeout again from now. A group the coordinator already hosts is kept
// as it is. Topics are named by the ids of the topics last given to
// [ConsumerGroupCoordinator.SetTopics]; partitions of a topic it does not
// know are dropped. It returns the ids of the groups loaded, sorted.
func (c *ConsumerGroupCoordinator) LoadGroups(recs []ConsumerGroupRecord) []string {
	names := map[[16]byte]string{}
	for n, t := range c.topics {
		names[t.ID] = n
	}
	replayed := map[string]*consumerGroup{}
	for _, r := range recs {
		replay(replayed, r, names)
	}
	var loaded []string
	for _, id := range slices.Sorted(maps.Keys(replayed)) {
		if g := c.groups[id]; g != nil && !g.dead {
			continue
		}
		c.install(replayed[id])
		loaded = append(loaded, id)
	}
	return loaded
}

// install puts a replayed group in place and starts its members' timers.
func (c *ConsumerGroupCoordinator) install(g *consumerGroup) {
	members := g.members
	g.members = map[string]*consumerMember{}
	for _, id := range slices.Sorted(maps.Keys(members)) {
		m := members[id]
		if m.epoch == LeaveGroupMemberEpoch {
			continue // its current assignment was tombstoned: it is leaving
		}
		g.put(nil, m)
		t := consumerTimers{sessionMs: c.nowMs + int64(c.cfg.SessionTimeoutMs)}
		if m.state == MemberUnrevokedPartitions {
			t.rebalanceMs, t.rebalanceEpoch = c.nowMs+int64(max(m.rebalanceTimeoutMs, 0)), m.epoch
		}
		g.timers[id] = t
	}
	c.groups[g.id] = g
}

// replay applies one record to the groups being loaded.
func replay(groups map[string]*consumerGroup, r ConsumerGroupRecord, names map[[16]byte]string) {
	g := groups[r.Group]
	if r.Tombstone {
		if g != nil {
			replayTombstone(groups, g, r)
		}
		return
	}
	if g == nil {
		g = newConsumerGroup(r.Group)
		groups[r.Group] = g
	}
	switch r.Type {
	case ConsumerGroupMetadataType:
		g.groupEpoch = r.Epoch
	case ConsumerGroupPartitionMetadataType:
		g.subscription = make(map[string]TopicMetadata, len(r.Topics))
		for _, t := range r.Topics {
			g.subscription[t.Topic] = t
		}
	case ConsumerGroupTargetAssignmentMetadataType:
		g.assignmentEpoch = r.Epoch
	case ConsumerGroupTargetAssignmentMemberType:
		g.target[r.MemberID] = byName(r.Partitions, names)
	case ConsumerGroupMemberMetadataType:
		m := replayedMember(g, r.MemberID)
		md := r.Member
		m.instanceID, m.rackID, m.clientID, m.clientHost = md.InstanceID, md.RackID, md.ClientID, md.ClientHost
		m.topics = slices.Compact(slices.Sorted(slices.Values(md.SubscribedTopicNames)))
		if m.topics == nil {
			m.topics = []string{}
		}
		m.regex, m.rebalanceTimeoutMs, m.serverAssignor = md.SubscribedTopicRegex, md.RebalanceTimeoutMs, md.ServerAssignor
	case ConsumerGroupCurrentMemberAssignmentType:
		m := replayedMember(g, r.MemberID)
		cur := r.Current
		m.epoch, m.previousEpoch, m.state = cur.MemberEpoch, cur.PreviousMemberEpoch, cur.State
		m.assigned, m.revoking = byName(cur.Assigned, names), byName(cur.Revoking, names)
	}
}

// replayTombstone applies a tombstone to a group being loaded.
func replayTombstone(groups map[string]*consumerGroup, g *consumerGroup, r ConsumerGroupRecord) {
	switch r.Type {
	case ConsumerGroupMetadataType:
		delete(groups, r.Group)
	case ConsumerGroupPartitionMetadataType:
		g.subscription = map[string]TopicMetadata{}
	case ConsumerGroupTargetAssignmentMetadataType:
		g.assignmentEpoch = 0
	case ConsumerGroupTargetAssignmentMemberType:
		delete(g.target, r.MemberID)
	case ConsumerGroupMemberMetadataType:
		delete(g.members, r.MemberID)
	case ConsumerGroupCurrentMemberAssignmentType:
		if m := g.members[r.MemberID]; m != nil {
			m.epoch, m.previousEpoch = LeaveGroupMemberEpoch, LeaveGroupMemberEpoch
			m.assigned, m.revoking = []TopicPartition{}, []TopicPartition{}
		}
	}
}

// replayedMember is the member being loaded (getOrMaybeCreateMember): a
// new one has Kafka's defaults. Loading builds members in place; they are
// not shared until installed.
func replayedMember(g *consumerGroup, id string) *consumerMember {
	m := g.members[id]
	if m == nil {
		m = &consumerMember{id: id, rebalanceTimeoutMs: -1, assigned: []TopicPartition{}, revoking: []TopicPartition{}}
		g.members[id] = m
	}
	return m
}

// byName turns stored partitions into named ones, sorted; a topic id not
// in names is dropped.
func byName(tps []TopicIDPartitions, names map[[16]byte]string) []TopicPartition {
	out := []TopicPartition{}
	for _, t := range tps {
		n, ok := names[t.TopicID]
		if !ok {
			continue
		}
		for _, p := range t.Partitions {
			out = append(out, TopicPartition{Topic: n, Partition: p})
		}
	}
	return SortedPartitions(out)
}

// UnloadGroup forgets a consumer group whose __consumer_offsets partition
// the caller no longer leads (onUnloaded): a later
// [ConsumerGroupCoordinator.LoadGroups] takes it from the log again.
func (c *ConsumerGroupCoordinator) UnloadGroup(id string) {
	delete(c.groups, id)
}
