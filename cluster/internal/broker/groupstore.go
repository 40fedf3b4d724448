package broker

import (
	"errors"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// A group's metadata lives in its __consumer_offsets partition beside its
// committed offsets. A classic group's, as Kafka 3.7's
// GroupMetadataManager keeps it: the coordinator stores the group (a GroupMetadataKey and a version-3
// GroupMetadataValue, one record in a batch of its own, acks=all) when
// the leader's assignment arrives, when a rebalance leaves it empty, and
// when a static member rejoins under a new member id; a deleted group gets
// a tombstone. A broker whose replica becomes the leader of an offsets
// partition loads the latest record of each group in it
// (GroupCoordinator.onElection): the members carry on with their member
// ids and generation. One that stops leading it forgets its groups
// (onResignation).
//
// A consumer-protocol group's (KIP-848), as Kafka 4's coordinator writes
// it: every heartbeat, fencing or deletion that changes the group appends
// the records of the change (ConsumerGroupMetadata, PartitionMetadata,
// MemberMetadata, TargetAssignmentMetadata and Member,
// CurrentMemberAssignment, or their tombstones: group.ConsumerGroupRecord)
// in the same batch as the commits of the same answer, acks=all, and the
// answer waits for that append (processGroupReady). A new leader replays
// them in log order: members keep their ids, epochs and partitions, and
// heartbeat on at their epochs without a rebalance; their sessions (and
// the rebalance timeouts of those still revoking) start at the load.
//
// The load happens when the replica becomes leader (the LeaderAndIsr
// decision), not lazily at a group's first request: a lazy load would be
// seen. A loaded member's session starts at the load, so a member that
// never comes back is removed one session after the take-over, with the
// rebalance and the Empty record that follow; loaded lazily, it would stay
// until some request for the group arrived. The group would also be
// missing meanwhile from ListGroups, DescribeGroups and the world's state.
// The partition is read to its log end, as Kafka's loader reads it
// (FetchIsolation.LOG_END), not to its high watermark: what the new
// leader holds is what its followers will hold.

// appendGroupRecords appends each group record of the coordinator's
// Ready to its offsets partition, one batch each, and keeps its store id
// under the append's correlation id until the ISR answers. A record that
// cannot be appended (no leader replica here) fails at once with
// NOT_COORDINATOR, as storeGroup does without a local partition.
func (b *Broker) appendGroupRecords(env Env, recs []group.GroupRecord) {
	cs := b.coord
	for _, r := range recs {
		rec := replica.Record{Key: group.AppendGroupMetadataKey(nil, r.Group)}
		if !r.Tombstone {
			rec.Value = group.AppendGroupMetadataValue(nil, groupMetadataValue(r))
		}
		corr, err := b.appendOffsetsRecords(env, metadata.OffsetsPartition(r.Group, b.cfg.OffsetsTopicNumPartitions), []replica.Record{rec})
		if err != nil {
			env.Record(event.Group, b.id, nil, "coordinator: %s: group metadata not stored: %v", r.Group, err)
			cs.c.GroupStored(r.StoreID, group.NotCoordinator)
			continue
		}
		if cs.storing == nil {
			cs.storing = map[int64]int64{}
		}
		cs.storing[corr] = r.StoreID
	}
}

// groupStored hands the end of a group record's append to the
// coordinator, with the error Kafka 3.7's storeGroup makes of the
// append's.
func (b *Broker) groupStored(env Env, e *netsim.Envelope, storeID int64) {
	code := group.None
	if e.Resp.Error != replica.None {
		code = storeAppendError(e.Resp.Error)
		env.Record(event.Group, b.id, &e.TP, "coordinator: group metadata append failed: %s (%s to the group)", e.Resp.Error, code)
	}
	b.coord.c.GroupStored(storeID, code)
	b.processCoordinator(env)
}

// storeAppendError is GroupMetadataManager.storeGroup's mapping (Kafka
// 3.7) of a failed append to the error its callers answer: too few
// in-sync replicas COORDINATOR_NOT_AVAILABLE, a replica no longer leading
// NOT_COORDINATOR, a timed-out append REBALANCE_IN_PROGRESS, a record too
// large UNKNOWN_SERVER_ERROR, any other error itself.
func storeAppendError(code replica.ErrorCode) group.ErrorCode {
	switch code {
	case replica.NotEnoughReplicas, replica.NotEnoughReplicasAfterAppend:
		return group.CoordinatorNotAvailable
	case replica.NotLeaderOrFollower:
		return group.NotCoordinator
	case replica.RequestTimedOut:
		return group.RebalanceInProgress
	case replica.MessageTooLarge, replica.RecordListTooLarge:
		return group.UnknownServerError
	}
	return group.ErrorCode(code)
}

// groupMetadataValue writes a group record as its stored value: each
// member's subscription and assignment as the bytes that came over the
// wire, or for the world's own members of the "consumer" protocol type
// as a Kafka 3.7 consumer writes them (encodeSubscription,
// encodeAssignment), with the host DescribeGroups gives them. Protocol
// and leader are null for a group without members, as Kafka writes an
// Empty group.
func groupMetadataValue(r group.GroupRecord) group.GroupMetadataValue {
	v := group.GroupMetadataValue{Version: 3, ProtocolType: r.ProtocolType, Generation: r.Generation, CurrentStateTimestampMs: r.CurrentStateTimestampMs}
	if len(r.Members) > 0 {
		v.Protocol, v.Leader = ptr(r.Protocol), ptr(r.Leader)
	}
	consumer := r.ProtocolType == consumerProtocolType
	for _, m := range r.Members {
		gm := group.GroupMetadataMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost,
			RebalanceTimeoutMs: m.RebalanceTimeoutMs, SessionTimeoutMs: m.SessionTimeoutMs,
			Subscription: m.Protocol.Metadata, Assignment: m.AssignmentData}
		if m.GroupInstanceID != "" {
			gm.GroupInstanceID = ptr(m.GroupInstanceID)
		}
		if gm.ClientHost == "" {
			gm.ClientHost = GroupHost // a world's own consumer, as DescribeGroups shows it
		}
		if gm.Subscription == nil && consumer {
			gm.Subscription = encodeSubscription(m.Protocol.Name, m.Protocol.Subscription)
		}
		if gm.Assignment == nil && consumer {
			gm.Assignment = encodeAssignment(m.Assignment)
		}
		v.Members = append(v.Members, gm)
	}
	return v
}

// groupRecord reads a stored value back into the record the coordinator
// loads: for the "consumer" protocol type the subscription and the
// assignment are also decoded for the world's assignors and members.
func groupRecord(id string, v group.GroupMetadataValue) group.GroupRecord {
	r := group.GroupRecord{Group: id, Generation: v.Generation, ProtocolType: v.ProtocolType,
		Protocol: deref(v.Protocol), Leader: deref(v.Leader), CurrentStateTimestampMs: v.CurrentStateTimestampMs}
	consumer := v.ProtocolType == consumerProtocolType
	for _, m := range v.Members {
		sm := group.StoredMember{MemberID: m.MemberID, GroupInstanceID: deref(m.GroupInstanceID), ClientID: m.ClientID, ClientHost: m.ClientHost,
			RebalanceTimeoutMs: m.RebalanceTimeoutMs, SessionTimeoutMs: m.SessionTimeoutMs,
			Protocol: group.Protocol{Name: r.Protocol, Metadata: m.Subscription}, AssignmentData: m.Assignment}
		if m.RebalanceTimeoutMs < 0 {
			sm.RebalanceTimeoutMs = m.SessionTimeoutMs // version 0 (readGroupMessageValue)
		}
		if consumer {
			sm.Protocol.Subscription = decodeSubscription(r.Protocol, m.Subscription)
			sm.Assignment = decodeAssignment(m.Assignment)
		}
		r.Members = append(r.Members, sm)
	}
	return r
}

// loadGroups is GroupCoordinator.onElection: b's replica of offsets
// partition k became its leader. The log is read to its end once (as
// GroupMetadataManager.loadGroupsAndOffsets reads it): every classic group
// whose latest metadata record is not a tombstone is loaded into b's
// classic coordinator, and the consumer group records are replayed, in log
// order, into its consumer group coordinator (Kafka 4's
// GroupMetadataManager.replay and onLoaded).
func (b *Broker) loadGroups(env Env, k tp) {
	s := b.replicas[k]
	if s == nil {
		return
	}
	s.changing()
	latest := map[string][]byte{}
	var order []string
	var consumer []group.ConsumerGroupRecord
	for _, e := range s.Log.Mirror().From(0) {
		if r, err := group.ReadConsumerGroupRecord(e.Key, e.Value); err == nil {
			consumer = append(consumer, r)
			continue
		} else if !errors.Is(err, group.ErrNotConsumerGroupRecord) {
			env.Record(event.Group, b.id, &k, "coordinator: record at offset %d skipped: %v", e.Offset, err)
			continue
		}
		id, err := group.ReadGroupMetadataKey(e.Key)
		if err != nil {
			continue // an offset commit, or a key this version does not know
		}
		if _, seen := latest[id]; !seen {
			order = append(order, id)
		}
		latest[id] = e.Value
	}
	order = slices.DeleteFunc(order, func(id string) bool { return latest[id] == nil })
	if len(order) == 0 && len(consumer) == 0 {
		return // no group to load: the coordinator starts at its first request
	}
	cs := b.coordinator(env)
	b.tickCoordinatorClock(env)
	for _, id := range order {
		v, err := group.ReadGroupMetadataValue(latest[id])
		if err != nil {
			env.Record(event.Group, b.id, &k, "coordinator: group %s not loaded: %v", id, err)
			continue
		}
		if cs.c.LoadGroup(groupRecord(id, v)) {
			st, _ := cs.c.Group(id)
			env.Record(event.Group, b.id, &k, "coordinator: loaded group %s from %s: %s, generation %d, %d members",
				id, k, st.State, st.Generation, len(st.Members))
		}
	}
	b.loadConsumerGroups(env, k, consumer)
	b.processCoordinator(env)
}

// loadConsumerGroups replays the consumer group records of offsets
// partition k into b's consumer group coordinator, which names their
// topics by the controller's topic ids.
func (b *Broker) loadConsumerGroups(env Env, k tp, recs []group.ConsumerGroupRecord) {
	if len(recs) == 0 {
		return
	}
	cg := b.coord.cg
	cg.SetTopics(groupTopics(env))
	for _, id := range cg.LoadGroups(recs) {
		st, _ := cg.Group(id)
		env.Record(event.Group, b.id, &k, "coordinator: loaded consumer group %s from %s: %s, group epoch %d, assignment epoch %d, %d members",
			id, k, st.State, st.GroupEpoch, st.AssignmentEpoch, len(st.Members))
	}
}

// unloadGroups is GroupCoordinator.onResignation: b's replica of offsets
// partition k is no longer its leader, so b's coordinators forget the
// groups that live there (the requests they hold for them are answered
// NOT_COORDINATOR by unloadResigned).
func (b *Broker) unloadGroups(env Env, k tp) {
	if b.coord == nil {
		return
	}
	for _, st := range b.coord.c.Groups() {
		if metadata.OffsetsPartition(st.GroupID, b.cfg.OffsetsTopicNumPartitions) == k {
			b.coord.c.UnloadGroup(st.GroupID)
			env.Record(event.Group, b.id, &k, "coordinator: unloaded group %s: no longer the leader of %s", st.GroupID, k)
		}
	}
	for _, st := range b.coord.cg.Groups() {
		if metadata.OffsetsPartition(st.GroupID, b.cfg.OffsetsTopicNumPartitions) == k {
			b.coord.cg.UnloadGroup(st.GroupID)
			env.Record(event.Group, b.id, &k, "coordinator: unloaded consumer group %s: no longer the leader of %s", st.GroupID, k)
		}
	}
}
