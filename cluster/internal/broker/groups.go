package broker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// This file serves the consumer-group APIs to clients outside the
// simulation, as Kafka 3.7's classic group coordinator does (KafkaApis and
// GroupCoordinator): FindCoordinator, JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups, ListGroups and
// DeleteGroups, one file each.
//
// The coordinator of a group is the broker that leads the group's
// __consumer_offsets partition, the same [group.Coordinator] the world's
// own consumers talk to, so that outside members and simulated ones can
// share a group. The coordinator keeps a member's protocol metadata and
// the leader's assignment as the bytes that came over the wire; for the
// "consumer" protocol type the handlers also translate them, at the
// boundary, to and from the structured [group.Subscription] and
// partitions the world's members speak (consumerprotocol.go), so that a
// simulated leader assigns to an outside member and an outside leader to
// simulated ones. Other protocol types stay opaque: a group of outside
// members of another type works, its bytes untouched.
//
// A request is handed to the coordinator under an address of its own
// (groupAddr); the coordinator's answers to that address come back
// through [Requests.GroupAnswered] (the broker's sendResponses hands them
// over), after the offsets of an OffsetCommit are stored, and are turned
// into the request's response there. An answer the coordinator holds (a
// JoinGroup parked for the join phase, a SyncGroup waiting for the leader)
// comes when the world gets there, in world time. A request at a broker
// that goes down is never answered (the wire layer closes or hangs the
// connection); a parked JoinGroup or SyncGroup at a broker that stops
// leading the group's offsets partition is answered NOT_COORDINATOR
// (GroupCoordinator.onGroupUnloaded, [Requests.UnloadResigned]), and the
// client finds the new coordinator. That coordinator loaded the group
// from the log when it took the offsets partition over (groupstore.go):
// members carry on with their member ids and generation, and their
// committed offsets are there.

// isGroupKey reports whether key is one of the consumer-group APIs
// (OffsetCommit, OffsetFetch, FindCoordinator, JoinGroup, Heartbeat,
// LeaveGroup, SyncGroup, DescribeGroups, ListGroups, DeleteGroups,
// ConsumerGroupHeartbeat).
func isGroupKey(key int16) bool {
	switch key {
	case 8, 9, 10, 11, 12, 13, 14, 15, 16, 42, 68:
		return true
	}
	return false
}

// consumerProtocolType is the protocol type of Kafka's consumers, whose
// metadata and assignments the brokers read.
const consumerProtocolType = "consumer"

// groupWait is one client's group request at a coordinator. A batched
// request (LeaveGroup v3+ members, OffsetFetch v8+ groups) is handed over
// in parts, one address each; it is answered when the last part is.
type groupWait struct {
	id          uint64
	broker      int32
	incarnation int
	req         kmsg.Request
	resp        kmsg.Response
	part        int
	open        *int
	// ids are the topics' ids when a ConsumerGroupHeartbeat was stepped:
	// its answer names the assigned topics by id.
	ids map[string][16]byte
	// unstable are the partitions an OffsetFetch with require_stable
	// answers UNSTABLE_OFFSET_COMMIT (their transactional commit pending).
	unstable map[group.TopicPartition]bool
}

// groupAddr is the coordinator address of part part of request id from
// client (client.id clientID). It has no '#', which the world's
// consumers' addresses have.
func groupAddr(clientID string, client int32, id uint64, part int) string {
	return fmt.Sprintf("%s/external-%d/r%d.%d", clientID, client, id, part)
}

// step hands the parts of request id (x, req) to b's coordinator (if b is
// the coordinator of the group: else NOT_COORDINATOR at once) and lets the
// answers come back through GroupAnswered. resp is the response the parts'
// answers are written into.
func (rq *Requests) step(env Env, b *Broker, id uint64, x *Request, req kmsg.Request, resp kmsg.Response, parts []group.Request) {
	rq.stepParts(env, b, id, x, req, resp, parts, nil)
}

// stepParts is step, where a nil part is one already answered and
// unstable, when not nil, holds for each part the partitions an
// OffsetFetch's answer marks UNSTABLE_OFFSET_COMMIT.
func (rq *Requests) stepParts(env Env, b *Broker, id uint64, x *Request, req kmsg.Request, resp kmsg.Response, parts []group.Request, unstable []map[group.TopicPartition]bool) {
	var mine []group.Request
	var idx []int
	for i, p := range parts {
		if p == nil {
			continue
		}
		if p.Group() != "" && !b.Coordinates(env, p.Group()) {
			fillAnswer(req, resp, i, nil, kafkaerr.NotCoordinator, nil)
			continue
		}
		mine, idx = append(mine, p), append(idx, i)
	}
	if len(mine) == 0 {
		rq.answer(id, resp)
		return
	}
	if rq.groups == nil {
		rq.groups = map[string]*groupWait{}
	}
	cs := b.coordinator(env)
	cs.tick(env)
	open := len(mine)
	var ids map[string][16]byte
	if _, ok := req.(*kmsg.ConsumerGroupHeartbeatRequest); ok {
		ids = topicIDs(env)
	}
	for k, p := range mine {
		addr := groupAddr(x.ClientID, x.Client, id, idx[k])
		w := &groupWait{id: id, broker: b.ID(), incarnation: b.Incarnation(), req: req, resp: resp, part: idx[k], open: &open, ids: ids}
		if unstable != nil {
			w.unstable = unstable[idx[k]]
		}
		rq.groups[addr] = w
		if r, ok := p.(group.LeaveGroup); ok {
			env.Record(event.Group, b.ID(), nil, "%s: external client %d (%s) leaves (LeaveGroup %s)", r.GroupID, x.Client, x.ClientID, r.MemberID+r.GroupInstanceID)
		}
		b.stepGroup(env, addr, p)
	}
	b.processCoordinator(env)
}

// GroupAnswered takes a coordinator answer o of broker b meant for a
// client's request (the broker hands it every answer of its coordinator):
// it reports false for an address that is not a client request's.
func (rq *Requests) GroupAnswered(b *Broker, o group.Outgoing) bool {
	p, ok := rq.groups[o.To]
	if !ok {
		return strings.Contains(o.To, "/external-") && !strings.Contains(o.To, "#")
	}
	delete(rq.groups, o.To)
	if p.broker != b.ID() || b.Incarnation() != p.incarnation {
		return true
	}
	fillAnswer(p.req, p.resp, p.part, o.Response, 0, p.ids)
	if r, ok := p.resp.(*kmsg.OffsetFetchResponse); ok && p.unstable != nil {
		markUnstable(r, p.part, p.unstable)
	}
	rq.closePart(p)
	return true
}

// closePart counts one part of p's request answered, and answers the
// request after its last.
func (rq *Requests) closePart(p *groupWait) {
	*p.open--
	if *p.open == 0 {
		rq.answer(p.id, p.resp)
	}
}

// sweepGroups forgets the group requests waiting at brokers that went down
// or restarted: they are never answered.
func (rq *Requests) sweepGroups(brokers []*Broker) {
	for addr, p := range rq.groups {
		b := brokers[p.broker-1]
		if b.State() != BrokerRunning || b.Incarnation() != p.incarnation {
			delete(rq.groups, addr)
		}
	}
}

// UnloadResigned answers NOT_COORDINATOR to the clients' JoinGroup and
// SyncGroup requests parked at b's coordinator for a group whose offsets
// partition b no longer leads (GroupCoordinator.onGroupUnloaded).
func (rq *Requests) UnloadResigned(env Env, b *Broker) {
	if len(rq.groups) == 0 {
		return
	}
	var addrs []string
	for addr, p := range rq.groups {
		if p.broker == b.ID() {
			addrs = append(addrs, addr)
		}
	}
	slices.Sort(addrs)
	for _, addr := range addrs {
		p := rq.groups[addr]
		g := requestGroup(p.req, p.part)
		if g == "" || b.Coordinates(env, g) {
			continue
		}
		delete(rq.groups, addr)
		env.Record(event.Group, b.ID(), nil, "coordinator: no longer the coordinator of %s: NOT_COORDINATOR to %s", g, addr)
		fillAnswer(p.req, p.resp, p.part, nil, kafkaerr.NotCoordinator, nil)
		rq.closePart(p)
	}
}

// requestGroup is the group of part part of a client's group request.
func requestGroup(req kmsg.Request, part int) string {
	switch r := req.(type) {
	case *kmsg.JoinGroupRequest:
		return r.Group
	case *kmsg.SyncGroupRequest:
		return r.Group
	case *kmsg.HeartbeatRequest:
		return r.Group
	case *kmsg.LeaveGroupRequest:
		return r.Group
	case *kmsg.OffsetCommitRequest:
		return r.Group
	case *kmsg.ConsumerGroupHeartbeatRequest:
		return r.Group
	case *kmsg.OffsetFetchRequest:
		if r.Version >= 8 && part < len(r.Groups) {
			return r.Groups[part].Group
		}
		return r.Group
	}
	return ""
}

// fillAnswer writes the coordinator's answer ans to part part of the
// request (or, with ans nil, the error code) into resp; ids are the
// topics' ids a ConsumerGroupHeartbeat's answer names its topics by.
func fillAnswer(req kmsg.Request, resp kmsg.Response, part int, ans group.Response, code int16, ids map[string][16]byte) {
	switch r := resp.(type) {
	case *kmsg.ConsumerGroupHeartbeatResponse:
		if a, ok := ans.(group.ConsumerGroupHeartbeatResponse); ok {
			fillHeartbeat(r, a, ids)
			return
		}
		heartbeatError(r, code)
	case *kmsg.JoinGroupResponse:
		a, _ := ans.(group.JoinGroupResponse)
		if ans == nil {
			a = group.JoinGroupResponse{Error: group.ErrorCode(code), MemberID: req.(*kmsg.JoinGroupRequest).MemberID}
		}
		fillJoinResponse(r, a)
	case *kmsg.SyncGroupResponse:
		a, _ := ans.(group.SyncGroupResponse)
		if ans == nil {
			a = group.SyncGroupResponse{Error: group.ErrorCode(code)}
		}
		fillSyncResponse(r, a)
	case *kmsg.HeartbeatResponse:
		if a, ok := ans.(group.HeartbeatResponse); ok {
			code = int16(a.Error)
		}
		r.ErrorCode = code
	case *kmsg.LeaveGroupResponse:
		if a, ok := ans.(group.LeaveGroupResponse); ok {
			code = int16(a.Error)
		}
		fillLeaveResponse(r, part, code)
	case *kmsg.OffsetCommitResponse:
		if a, ok := ans.(group.OffsetCommitResponse); ok {
			code = int16(a.Error)
		}
		setCommitErrors(r, code)
	case *kmsg.OffsetFetchResponse:
		a, _ := ans.(group.OffsetFetchResponse)
		if ans == nil {
			a.Error = group.ErrorCode(code)
		}
		fillOffsetFetch(req.(*kmsg.OffsetFetchRequest), r, part, a)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr(s string) *string { return &s }

// OffsetsOnlyGroups are the groups with committed offsets in the
// __consumer_offsets partitions b leads, sorted: those only a client's
// offsets make (assign and commit, as Flink's and Spark's sources do)
// among them, which Kafka lists and describes as Empty groups. They are
// b's whether or not a request has started its coordinator yet.
func (b *Broker) OffsetsOnlyGroups(env Env) []string { return b.offsetsOnlyGroups(env) }
