package broker

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/group"
)

// A broker's two group coordinators, the classic one and the one of the
// consumer-protocol groups (KIP-848), share the group ids: a group id
// belongs to the one whose group has it, and a request of the other
// protocol is refused while that group has members. An empty group is
// handed over: the first ConsumerGroupHeartbeat to an empty classic group
// replaces it by a consumer group, the first JoinGroup to an empty consumer
// group by a classic one, the committed offsets kept (Kafka 4's
// GroupMetadataManager.getOrMaybeCreateConsumerGroup and classicGroupJoin).
//
// Kafka 4 goes further with groups that have members: under its default
// group.consumer.migration.policy (bidirectional) a consumer-protocol
// member joining a classic group of the consumer protocol type converts
// it online, and a classic member joins a consumer group as a classic
// member of it (classicGroupJoinToConsumerGroup). Those mixed groups are
// not modelled: the heartbeat is refused as Kafka refuses one it cannot
// convert (GROUP_ID_NOT_FOUND, "is not a consumer group"), a JoinGroup as
// one whose protocols the group does not support
// (INCONSISTENT_GROUP_PROTOCOL), and the other classic requests of a
// member the consumer group does not know UNKNOWN_MEMBER_ID.

// tick moves both coordinators' clocks and tells the consumer group
// coordinator the topics (the metadata image) first, when it has groups
// to tell (a heartbeat that makes the first one tells it then, stepGroup).
// It returns the classic members whose session expired.
func (cs *coordinatorState) tick(env Env) []group.Removed {
	if cs.cg.HasGroups() {
		cs.cg.SetTopics(groupTopics(env))
	}
	removed := cs.c.TickRemoved(env.Now())
	cs.cg.Tick(env.Now())
	return removed
}

// groupTopics is the controller's topics as the group coordinators see
// them: name, id, partition count.
func groupTopics(env Env) []group.TopicMetadata {
	ts := env.Topics()
	out := make([]group.TopicMetadata, len(ts))
	for i, t := range ts {
		out[i] = group.TopicMetadata{Topic: t.Name, Partitions: int32(len(t.Assignment)), ID: TopicUUID(t.ID)}
	}
	return out
}

// stepGroup hands request r from addr to the coordinator its group
// belongs to, or answers it (a refused protocol) through the same way
// out as the coordinators' answers. The caller ticks first and processes
// the coordinators' Ready after.
func (b *Broker) stepGroup(env Env, addr string, r group.Request) {
	cs := b.coordinator(env)
	if resp := b.crossProtocol(env, r); resp != nil {
		b.logGroupResponse(env, group.Outgoing{To: addr, Response: resp})
		b.sendResponses(env, []group.Outgoing{{To: addr, Response: resp}})
		return
	}
	var err error
	if b.servedByConsumerGroups(r) {
		if _, heartbeat := r.(group.ConsumerGroupHeartbeat); heartbeat && !cs.cg.HasGroups() {
			cs.cg.SetTopics(groupTopics(env))
		}
		err = cs.cg.Step(addr, r)
	} else {
		err = cs.c.Step(addr, r)
	}
	if err != nil {
		env.Record(event.Group, b.id, nil, "coordinator: %v", err)
	}
}

// servedByConsumerGroups: a heartbeat, or a commit or offset fetch of a
// group the consumer group coordinator has.
func (b *Broker) servedByConsumerGroups(r group.Request) bool {
	switch r.(type) {
	case group.ConsumerGroupHeartbeat:
		return true
	case group.OffsetCommit, group.OffsetFetch:
		ok, _ := b.coord.cg.Hosts(r.Group())
		return ok
	}
	return false
}

// crossProtocol answers a request its group's protocol refuses, hands an
// empty group over to the other protocol, and returns nil for a request to
// step.
func (b *Broker) crossProtocol(env Env, r group.Request) group.Response {
	cs := b.coord
	switch r := r.(type) {
	case group.ConsumerGroupHeartbeat:
		if resp := b.unsupported(r); resp != nil {
			return resp
		}
		st, ok := cs.c.Group(r.GroupID)
		if !ok || st.State == group.Dead || r.GroupID == "" {
			return nil
		}
		if len(st.Members) > 0 {
			return group.ConsumerGroupHeartbeatResponse{Error: group.GroupIDNotFound, Message: fmt.Sprintf("Group %s is not a consumer group.", r.GroupID)}
		}
		if r.MemberEpoch == group.JoinGroupMemberEpoch && cs.c.ForgetEmptyGroup(r.GroupID) {
			env.Record(event.Group, b.id, nil, "%s: the empty classic group becomes a consumer group (KIP-848), its committed offsets kept", r.GroupID)
		}
	case group.JoinGroup, group.SyncGroup, group.Heartbeat, group.LeaveGroup:
		ok, empty := cs.cg.Hosts(r.Group())
		if !ok {
			return nil
		}
		if _, join := r.(group.JoinGroup); join && empty {
			cs.cg.ForgetEmptyGroup(r.Group())
			env.Record(event.Group, b.id, nil, "%s: the empty consumer group becomes a classic group, its committed offsets kept", r.Group())
			return nil
		}
		return refusedByConsumerGroup(r)
	}
	return nil
}

// unsupported answers a ConsumerGroupHeartbeat at a broker that does not
// serve the consumer protocol as Kafka 3.7's
// KafkaApis.handleConsumerGroupHeartbeat does without the new group
// coordinator: UNSUPPORTED_VERSION, before anything else; nil otherwise.
func (b *Broker) unsupported(r group.Request) group.Response {
	if _, ok := r.(group.ConsumerGroupHeartbeat); !ok || b.cfg.ConsumerGroupProtocol {
		return nil
	}
	return group.ConsumerGroupHeartbeatResponse{Error: group.UnsupportedVersion,
		Message: "The new consumer group protocol is not enabled (group.coordinator.rebalance.protocols)."}
}

// refusedByConsumerGroup is the answer to a classic request for a
// consumer group.
func refusedByConsumerGroup(r group.Request) group.Response {
	switch r.(type) {
	case group.JoinGroup:
		return group.JoinGroupResponse{Error: group.InconsistentGroupProtocol}
	case group.SyncGroup:
		return group.SyncGroupResponse{Error: group.UnknownMemberID, Assignment: []group.TopicPartition{}}
	case group.Heartbeat:
		return group.HeartbeatResponse{Error: group.UnknownMemberID}
	}
	return group.LeaveGroupResponse{Error: group.UnknownMemberID}
}

// reportFenced records the consumer-protocol members a Tick removed.
func (b *Broker) reportFenced(env Env, before []group.ConsumerGroupStatus) {
	for _, g := range before {
		after, _ := b.coord.cg.Group(g.GroupID)
		for _, m := range g.Members {
			if slices.ContainsFunc(after.Members, func(a group.ConsumerMemberStatus) bool { return a.MemberID == m.MemberID }) {
				continue
			}
			why := "no heartbeat within group.consumer.session.timeout.ms"
			if m.RebalanceDeadlineMs != 0 && m.RebalanceDeadlineMs <= env.Now() && m.SessionDeadlineMs > env.Now() {
				why = "it did not revoke within its rebalance timeout"
			}
			env.Record(event.Group, b.id, nil, "%s: member %s (%s) fenced: %s; group epoch %d", g.GroupID, m.MemberID, m.ClientID, why, after.GroupEpoch)
		}
	}
}
