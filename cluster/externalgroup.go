package cluster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// This file serves the consumer-group APIs to external Kafka clients, as
// Kafka 3.7's classic group coordinator does (KafkaApis and
// GroupCoordinator): FindCoordinator, JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups and ListGroups.
//
// The coordinator of a group is the broker that leads the group's
// __consumer_offsets partition, the same [group.Coordinator] the world's
// own consumers talk to, so that external members and simulated ones can
// share a group. The coordinator keeps a member's protocol metadata and
// the leader's assignment as the bytes that came over the wire; for the
// "consumer" protocol type this file also translates them, at the
// boundary, to and from the structured [group.Subscription] and
// partitions the world's members speak (ConsumerProtocolSubscription and
// ConsumerProtocolAssignment, kmsg's ConsumerMemberMetadata and
// ConsumerMemberAssignment), so that a simulated leader assigns to an
// external member and an external leader to simulated ones. Other
// protocol types stay opaque: a group of external members of another
// type works, its bytes untouched.
//
// A request is handed to the coordinator under an address of its own
// (extGroupAddr); the coordinator's answers to that address come back
// through [World.sendResponses] (coordinator.go), after the offsets of an
// OffsetCommit are stored, and are turned into the request's response
// there. An answer the coordinator holds (a JoinGroup parked for the join
// phase, a SyncGroup waiting for the leader) comes when the world gets
// there, in world time. A request at a broker that goes down is never
// answered (the wire layer closes or hangs the connection); a parked
// JoinGroup or SyncGroup at a broker that stops leading the group's
// offsets partition is answered NOT_COORDINATOR
// (GroupCoordinator.onGroupUnloaded), and the client finds the new
// coordinator. Group membership is not persisted (the group package), so
// the new coordinator does not know the members: they are answered
// UNKNOWN_MEMBER_ID and join again, and their committed offsets are in
// the log.

// isGroupKey reports whether key is one of the consumer-group APIs
// (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit, OffsetFetch, DescribeGroups, ListGroups).
func isGroupKey(key int16) bool {
	switch key {
	case 8, 9, 10, 11, 12, 13, 14, 15, 16, 42:
		return true
	}
	return false
}

// consumerProtocolType is the protocol type of Kafka's consumers, whose
// metadata and assignments the world reads.
const consumerProtocolType = "consumer"

// extGroupState is the world's side of external clients' group requests.
type extGroupState struct {
	// waiting are the requests handed to a coordinator and not yet
	// answered, by the address they were handed under.
	waiting map[string]*extGroupWait
}

// extGroupWait is one external group request at a coordinator. A batched
// request (LeaveGroup v3+ members, OffsetFetch v8+ groups) is handed over
// in parts, one address each; it is answered when the last part is.
type extGroupWait struct {
	id          uint64
	broker      int32
	incarnation int
	req         kmsg.Request
	resp        kmsg.Response
	part        int
	open        *int
}

// extGroupAddr is the coordinator address of part part of external
// request id from client (client.id clientID). It has no '#', which the
// world's consumers' addresses have.
func extGroupAddr(clientID string, client int32, id uint64, part int) string {
	return fmt.Sprintf("%s/external-%d/r%d.%d", clientID, client, id, part)
}

// externalGroupRequest is the one entry point of an external client's
// consumer-group request (x's key is one of isGroupKey's; req is x
// decoded), request id id, at running broker x.Broker. It answers now or
// later with w.answer(id, ...).
func (w *World) externalGroupRequest(id uint64, x *ExternalRequest, req kmsg.Request) {
	b := w.brokers[x.Broker-1]
	w.sweepExtGroup()
	switch r := req.(type) {
	case *kmsg.FindCoordinatorRequest:
		if r.CoordinatorType == 1 {
			// A transactional producer looks for its transaction
			// coordinator, which the simulated cluster does not run for
			// clients: it retries until its own timeout. Said once, on
			// the page, and in the answer's message.
			if c := w.extClient(x); c.LastError != noTxnCoordinator {
				c.LastError = noTxnCoordinator
				w.record(EventProduce, x.Broker, nil, "client %d (%s): FindCoordinator for a transactional.id: %s", x.Client, x.ClientID, noTxnCoordinator)
			}
		}
		w.answer(id, w.extFindCoordinator(r))
	case *kmsg.ListGroupsRequest:
		w.answer(id, w.extListGroups(b, r))
	case *kmsg.DescribeGroupsRequest:
		w.answer(id, w.extDescribeGroups(b, r))
	case *kmsg.JoinGroupRequest:
		w.extJoinGroup(id, x, b, r)
	case *kmsg.SyncGroupRequest:
		w.extSyncGroup(id, x, b, r)
	case *kmsg.HeartbeatRequest:
		inst := deref(r.InstanceID)
		w.extStep(id, x, b, req, r.ResponseKind(), []group.Request{group.Heartbeat{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: inst}})
	case *kmsg.LeaveGroupRequest:
		w.extLeaveGroup(id, x, b, r)
	case *kmsg.OffsetCommitRequest:
		w.extOffsetCommit(id, x, b, r)
	case *kmsg.OffsetFetchRequest:
		w.extOffsetFetch(id, x, b, r)
	case *kmsg.DeleteGroupsRequest:
		w.answer(id, w.extDeleteGroups(x, b, r))
	}
}

// extDeleteGroups answers DeleteGroups (v0-2) at b as Kafka 3.7's
// GroupCoordinator.handleDeleteGroups does, for each group named (once,
// KafkaApis takes them distinct): NOT_COORDINATOR unless b coordinates it;
// GROUP_ID_NOT_FOUND for a group it does not know, or already deleted;
// NON_EMPTY_GROUP for one with members; an Empty group (or one that only
// stores offsets) becomes Dead and tombstones for its committed offsets go
// to its __consumer_offsets partition (group.Coordinator.DeleteGroup). The
// empty group id is a group like any other here, as Kafka allows it.
func (w *World) extDeleteGroups(x *ExternalRequest, b *broker.Broker, r *kmsg.DeleteGroupsRequest) *kmsg.DeleteGroupsResponse {
	resp := r.ResponseKind().(*kmsg.DeleteGroupsResponse)
	seen := map[string]bool{}
	for _, name := range r.Groups {
		if seen[name] {
			continue
		}
		seen[name] = true
		g := kmsg.NewDeleteGroupsResponseGroup()
		g.Group = name
		if w.coordinatorOf(name) != b {
			g.ErrorCode = kafkaerr.NotCoordinator
			resp.Groups = append(resp.Groups, g)
			continue
		}
		g.ErrorCode = int16(b.DeleteGroup(w.env(), name, fmt.Sprintf("external client %d (%s)", x.Client, x.ClientID)))
		resp.Groups = append(resp.Groups, g)
	}
	return resp
}

// extStep hands the parts of an external request to b's coordinator (if b
// is the coordinator of the group: else NOT_COORDINATOR at once) and
// lets the answers come back through extGroupAnswer. resp is the
// response the parts' answers are written into.
func (w *World) extStep(id uint64, x *ExternalRequest, b *broker.Broker, req kmsg.Request, resp kmsg.Response, parts []group.Request) {
	open := 0
	var mine []group.Request
	var idx []int
	for i, p := range parts {
		if p.Group() != "" && w.coordinatorOf(p.Group()) != b {
			fillExtAnswer(req, resp, i, nil, kafkaerr.NotCoordinator)
			continue
		}
		mine, idx = append(mine, p), append(idx, i)
	}
	if len(mine) == 0 {
		w.answer(id, resp)
		return
	}
	if w.xgroup.waiting == nil {
		w.xgroup.waiting = map[string]*extGroupWait{}
	}
	cs := b.Coordinator(w.env())
	cs.Tick(w.now)
	open = len(mine)
	for k, p := range mine {
		addr := extGroupAddr(x.ClientID, x.Client, id, idx[k])
		w.xgroup.waiting[addr] = &extGroupWait{id: id, broker: b.ID(), incarnation: b.Incarnation(), req: req, resp: resp, part: idx[k], open: &open}
		if r, ok := p.(group.LeaveGroup); ok {
			w.record(EventGroup, b.ID(), nil, "%s: external client %d (%s) leaves (LeaveGroup %s)", r.GroupID, x.Client, x.ClientID, r.MemberID+r.GroupInstanceID)
		}
		if err := cs.Step(addr, p); err != nil {
			w.record(EventGroup, b.ID(), nil, "coordinator: %v", err)
		}
	}
	b.ProcessCoordinator(w.env())
}

// extGroupAnswered takes a coordinator answer to an external request's
// address (called by sendResponses for every answer): it reports false for
// an address that is not one.
func (w *World) extGroupAnswered(b *broker.Broker, o group.Outgoing) bool {
	p, ok := w.xgroup.waiting[o.To]
	if !ok {
		return strings.Contains(o.To, "/external-") && !strings.Contains(o.To, "#")
	}
	delete(w.xgroup.waiting, o.To)
	if p.broker != b.ID() || b.Incarnation() != p.incarnation {
		return true
	}
	fillExtAnswer(p.req, p.resp, p.part, o.Response, 0)
	*p.open--
	if *p.open == 0 {
		w.answer(p.id, p.resp)
	}
	return true
}

// sweepExtGroup forgets the requests waiting at brokers that went down or
// restarted: they are never answered.
func (w *World) sweepExtGroup() {
	for addr, p := range w.xgroup.waiting {
		b := w.brokers[p.broker-1]
		if b.State() != BrokerRunning || b.Incarnation() != p.incarnation {
			delete(w.xgroup.waiting, addr)
		}
	}
}

// unloadResignedExternal answers NOT_COORDINATOR to the external JoinGroup
// and SyncGroup requests parked at b's coordinator for a group whose
// offsets partition b no longer leads (GroupCoordinator.onGroupUnloaded).
func (w *World) unloadResignedExternal(b *broker.Broker) {
	if len(w.xgroup.waiting) == 0 {
		return
	}
	var addrs []string
	for addr, p := range w.xgroup.waiting {
		if p.broker == b.ID() {
			addrs = append(addrs, addr)
		}
	}
	slices.Sort(addrs)
	for _, addr := range addrs {
		p := w.xgroup.waiting[addr]
		g := extRequestGroup(p.req, p.part)
		if g == "" || w.coordinatorOf(g) == b {
			continue
		}
		delete(w.xgroup.waiting, addr)
		w.record(EventGroup, b.ID(), nil, "coordinator: no longer the coordinator of %s: NOT_COORDINATOR to %s", g, addr)
		fillExtAnswer(p.req, p.resp, p.part, nil, kafkaerr.NotCoordinator)
		*p.open--
		if *p.open == 0 {
			w.answer(p.id, p.resp)
		}
	}
}

// extRequestGroup is the group of part part of an external request.
func extRequestGroup(req kmsg.Request, part int) string {
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
	case *kmsg.OffsetFetchRequest:
		if r.Version >= 8 && part < len(r.Groups) {
			return r.Groups[part].Group
		}
		return r.Group
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr(s string) *string { return &s }

// clientHost is Kafka's ClientHost of a client at remote ("ip:port"):
// "/ip" (InetAddress.toString), "/" when unknown.
func clientHost(remote string) string {
	host := remote
	if i := strings.LastIndexByte(remote, ':'); i >= 0 {
		host = remote[:i]
	}
	return "/" + strings.Trim(host, "[]")
}

// errMessage is the ErrorMessage Kafka sends with a code (Errors.message):
// the exception's message, "NONE" for success.
func errMessage(code int16) *string {
	switch code {
	case 0:
		return ptr("NONE")
	case int16(group.CoordinatorNotAvailable):
		return ptr("The coordinator is not available.")
	case kafkaerr.InvalidRequest:
		return ptr("This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.")
	}
	return ptr(kafkaerr.Name(code))
}

// noTxnCoordinator is the answer to a transactional producer's search for
// its coordinator.
const noTxnCoordinator = "COORDINATOR_NOT_AVAILABLE: the simulated cluster runs no transaction coordinator for clients (transactional.id is not served)"

// extFindCoordinator answers FindCoordinator (KafkaApis.handleFindCoordinatorRequest,
// v0-v4; v4 batches keys): for a group, the broker leading its
// __consumer_offsets partition, which is created on first use;
// COORDINATOR_NOT_AVAILABLE while that partition has no running leader.
// Transactions are not simulated: a transactional id's coordinator is
// COORDINATOR_NOT_AVAILABLE. The answer carries node ids; the wire
// layer fills in their hosts and ports (advertised.listeners).
func (w *World) extFindCoordinator(r *kmsg.FindCoordinatorRequest) *kmsg.FindCoordinatorResponse {
	resp := r.ResponseKind().(*kmsg.FindCoordinatorResponse)
	message := func(code int16) *string {
		if r.CoordinatorType == 1 && code == int16(group.CoordinatorNotAvailable) {
			return ptr(noTxnCoordinator)
		}
		return errMessage(code)
	}
	find := func(key string) (node int32, code int16) {
		switch r.CoordinatorType {
		case 0:
		case 1:
			return -1, int16(group.CoordinatorNotAvailable)
		default:
			return -1, kafkaerr.InvalidRequest
		}
		if err := w.ensureOffsetsTopic(); err != nil {
			return -1, int16(group.CoordinatorNotAvailable)
		}
		b := w.coordinatorOf(key)
		if b == nil {
			return -1, int16(group.CoordinatorNotAvailable)
		}
		return b.ID(), 0
	}
	if r.Version < 4 {
		resp.NodeID, resp.ErrorCode = find(r.CoordinatorKey)
		resp.Port = -1
		if r.Version >= 1 {
			resp.ErrorMessage = message(resp.ErrorCode)
		}
		return resp
	}
	for _, k := range r.CoordinatorKeys {
		c := kmsg.NewFindCoordinatorResponseCoordinator()
		c.Key = k
		c.NodeID, c.ErrorCode = find(k)
		c.Port = -1
		c.ErrorMessage = message(c.ErrorCode)
		resp.Coordinators = append(resp.Coordinators, c)
	}
	return resp
}

// extJoinGroup translates a JoinGroup for the coordinator: the protocols'
// metadata as it came, and for the "consumer" protocol type each one
// decoded into a subscription.
func (w *World) extJoinGroup(id uint64, x *ExternalRequest, b *broker.Broker, r *kmsg.JoinGroupRequest) {
	resp := r.ResponseKind().(*kmsg.JoinGroupResponse)
	if r.Group == "" {
		fillExtAnswer(r, resp, 0, nil, kafkaerr.InvalidGroupID)
		w.answer(id, resp)
		return
	}
	if r.ProtocolType == "" || len(r.Protocols) == 0 {
		// GroupCoordinator.handleJoinGroup: a member with no protocol type
		// or no protocols cannot join.
		fillExtAnswer(r, resp, 0, nil, int16(group.InconsistentGroupProtocol))
		w.answer(id, resp)
		return
	}
	j := group.JoinGroup{GroupID: r.Group, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID),
		ClientID: x.ClientID, ClientHost: clientHost(x.Remote), NoMemberIDRequired: r.Version < 4,
		SessionTimeoutMs: r.SessionTimeoutMillis, RebalanceTimeoutMs: r.RebalanceTimeoutMillis, ProtocolType: r.ProtocolType}
	if r.Version == 0 {
		j.RebalanceTimeoutMs = r.SessionTimeoutMillis // v0 has none: the session timeout is used
	}
	for _, p := range r.Protocols {
		gp := group.Protocol{Name: p.Name, Metadata: slices.Clone(p.Metadata), Subscription: group.Subscription{Generation: -1}}
		if gp.Metadata == nil {
			gp.Metadata = []byte{}
		}
		if r.ProtocolType == consumerProtocolType {
			gp.Subscription = decodeSubscription(p.Name, p.Metadata)
		}
		j.Protocols = append(j.Protocols, gp)
	}
	w.extStep(id, x, b, r, resp, []group.Request{j})
}

// extSyncGroup translates a SyncGroup: the leader's assignments as bytes,
// and for a "consumer" group each one decoded into partitions.
func (w *World) extSyncGroup(id uint64, x *ExternalRequest, b *broker.Broker, r *kmsg.SyncGroupRequest) {
	s := group.SyncGroup{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID),
		ProtocolType: deref(r.ProtocolType), ProtocolName: deref(r.Protocol)}
	consumer := s.ProtocolType == consumerProtocolType
	if s.ProtocolType == "" && b.RunningCoordinator() != nil {
		if st, ok := b.RunningCoordinator().Group(r.Group); ok {
			consumer = st.ProtocolType == consumerProtocolType
		}
	}
	for _, a := range r.GroupAssignment {
		ma := group.MemberAssignment{MemberID: a.MemberID, Data: slices.Clone(a.MemberAssignment)}
		if ma.Data == nil {
			ma.Data = []byte{}
		}
		if consumer {
			ma.Partitions = decodeAssignment(a.MemberAssignment)
		}
		s.Assignments = append(s.Assignments, ma)
	}
	w.extStep(id, x, b, r, r.ResponseKind(), []group.Request{s})
}

// extLeaveGroup hands each leaving member to the coordinator (v3+ batches
// members, KIP-345).
func (w *World) extLeaveGroup(id uint64, x *ExternalRequest, b *broker.Broker, r *kmsg.LeaveGroupRequest) {
	resp := r.ResponseKind().(*kmsg.LeaveGroupResponse)
	var parts []group.Request
	if r.Version < 3 {
		parts = append(parts, group.LeaveGroup{GroupID: r.Group, MemberID: r.MemberID})
	} else {
		for _, m := range r.Members {
			parts = append(parts, group.LeaveGroup{GroupID: r.Group, MemberID: m.MemberID, GroupInstanceID: deref(m.InstanceID)})
			lm := kmsg.NewLeaveGroupResponseMember()
			lm.MemberID, lm.InstanceID = m.MemberID, m.InstanceID
			resp.Members = append(resp.Members, lm)
		}
	}
	if r.Group == "" {
		resp.ErrorCode = kafkaerr.InvalidGroupID
		w.answer(id, resp)
		return
	}
	w.extStep(id, x, b, r, resp, parts)
}

// extOffsetCommit hands a commit to the coordinator. Partitions of topics
// that do not exist are refused with UNKNOWN_TOPIC_OR_PARTITION
// (KafkaApis.handleOffsetCommitRequest); the others are committed or
// refused together. v0 commits carry no generation (a simple commit).
func (w *World) extOffsetCommit(id uint64, x *ExternalRequest, b *broker.Broker, r *kmsg.OffsetCommitRequest) {
	resp := r.ResponseKind().(*kmsg.OffsetCommitResponse)
	c := group.OffsetCommit{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID)}
	if r.Version == 0 {
		c.GenerationID, c.MemberID = -1, ""
	}
	for _, t := range r.Topics {
		rt := kmsg.NewOffsetCommitResponseTopic()
		rt.Topic = t.Topic
		tp := w.topic(t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewOffsetCommitResponseTopicPartition()
			rp.Partition = p.Partition
			if tp == nil || p.Partition < 0 || int(p.Partition) >= len(tp.Assignment) {
				rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			} else {
				rp.ErrorCode = -2 // filled in by the coordinator's answer
				c.Offsets = append(c.Offsets, group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: t.Topic, Partition: p.Partition},
					Offset: p.Offset, LeaderEpoch: p.LeaderEpoch, Metadata: deref(p.Metadata)})
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	if r.Version < 6 {
		for i := range c.Offsets {
			c.Offsets[i].LeaderEpoch = -1
		}
	}
	switch {
	case r.Group == "":
		setCommitErrors(resp, kafkaerr.InvalidGroupID)
		w.answer(id, resp)
	case len(c.Offsets) == 0:
		w.answer(id, resp)
	default:
		w.extStep(id, x, b, r, resp, []group.Request{c})
	}
}

// setCommitErrors sets code on every partition of resp not refused yet.
func setCommitErrors(resp *kmsg.OffsetCommitResponse, code int16) {
	for i := range resp.Topics {
		for j := range resp.Topics[i].Partitions {
			if p := &resp.Topics[i].Partitions[j]; p.ErrorCode == -2 || code == kafkaerr.NotCoordinator && p.ErrorCode == 0 {
				p.ErrorCode = code
			}
		}
	}
}

// extOffsetFetch reads committed offsets through the coordinator of each
// group (v8+ batches groups). Transactions are not simulated, so no
// offset is ever pending and require_stable (v7+) changes nothing.
func (w *World) extOffsetFetch(id uint64, x *ExternalRequest, b *broker.Broker, r *kmsg.OffsetFetchRequest) {
	resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
	var parts []group.Request
	if r.Version < 8 {
		f := group.OffsetFetch{GroupID: r.Group}
		if r.Topics != nil || r.Version < 2 {
			f.Partitions = []group.TopicPartition{}
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					f.Partitions = append(f.Partitions, group.TopicPartition{Topic: t.Topic, Partition: p})
				}
			}
		}
		parts = append(parts, f)
	} else {
		for _, g := range r.Groups {
			f := group.OffsetFetch{GroupID: g.Group}
			if g.Topics != nil {
				f.Partitions = []group.TopicPartition{}
				for _, t := range g.Topics {
					for _, p := range t.Partitions {
						f.Partitions = append(f.Partitions, group.TopicPartition{Topic: t.Topic, Partition: p})
					}
				}
			}
			parts = append(parts, f)
			rg := kmsg.NewOffsetFetchResponseGroup()
			rg.Group = g.Group
			resp.Groups = append(resp.Groups, rg)
		}
	}
	for i, p := range parts {
		if p.Group() == "" {
			fillExtAnswer(r, resp, i, nil, kafkaerr.InvalidGroupID)
		}
	}
	parts = slices.DeleteFunc(parts, func(p group.Request) bool { return p.Group() == "" })
	if len(parts) == 0 {
		w.answer(id, resp)
		return
	}
	w.extStep(id, x, b, r, resp, parts)
}

// fillExtAnswer writes the coordinator's answer ans to part part of the
// request (or, with ans nil, the error code) into resp.
func fillExtAnswer(req kmsg.Request, resp kmsg.Response, part int, ans group.Response, code int16) {
	switch r := resp.(type) {
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
		if r.Version < 3 {
			if r.ErrorCode == 0 {
				r.ErrorCode = code // LeaveGroupResponse: the first member's error
			}
			return
		}
		if code == kafkaerr.NotCoordinator || code == kafkaerr.InvalidGroupID {
			r.ErrorCode = code // a group-level error
			r.Members = nil
			return
		}
		if part < len(r.Members) {
			r.Members[part].ErrorCode = code
		}
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

func fillJoinResponse(r *kmsg.JoinGroupResponse, a group.JoinGroupResponse) {
	r.ErrorCode, r.MemberID = int16(a.Error), a.MemberID
	if a.Error != group.None {
		r.Generation, r.LeaderID, r.Members = -1, "", nil
		if r.Version < 7 {
			r.Protocol = ptr("")
		}
		return
	}
	r.Generation, r.LeaderID, r.SkipAssignment = a.GenerationID, a.Leader, a.SkipAssignment
	r.Protocol = ptr(a.ProtocolName)
	if r.Version >= 7 {
		r.ProtocolType = ptr(a.ProtocolType)
	}
	for _, m := range a.Members {
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.MemberID
		if m.GroupInstanceID != "" {
			jm.InstanceID = ptr(m.GroupInstanceID)
		}
		jm.ProtocolMetadata = m.Metadata
		if jm.ProtocolMetadata == nil {
			jm.ProtocolMetadata = encodeSubscription(a.ProtocolName, m.Subscription)
		}
		r.Members = append(r.Members, jm)
	}
}

func fillSyncResponse(r *kmsg.SyncGroupResponse, a group.SyncGroupResponse) {
	r.ErrorCode = int16(a.Error)
	r.MemberAssignment = []byte{}
	if a.Error != group.None {
		return
	}
	if r.Version >= 5 {
		r.ProtocolType, r.Protocol = ptr(a.ProtocolType), ptr(a.ProtocolName)
	}
	switch {
	case a.Data != nil:
		r.MemberAssignment = a.Data
	case a.ProtocolType == consumerProtocolType:
		r.MemberAssignment = encodeAssignment(a.Assignment)
	}
}

func fillOffsetFetch(req *kmsg.OffsetFetchRequest, r *kmsg.OffsetFetchResponse, part int, a group.OffsetFetchResponse) {
	code := int16(a.Error)
	if r.Version >= 8 {
		if part >= len(r.Groups) {
			return
		}
		g := &r.Groups[part]
		g.ErrorCode = code
		if code != 0 {
			return
		}
		for _, po := range a.Offsets {
			if n := len(g.Topics); n == 0 || g.Topics[n-1].Topic != po.Topic {
				t := kmsg.NewOffsetFetchResponseGroupTopic()
				t.Topic = po.Topic
				g.Topics = append(g.Topics, t)
			}
			p := kmsg.NewOffsetFetchResponseGroupTopicPartition()
			p.Partition, p.Offset, p.LeaderEpoch, p.Metadata = po.Partition, po.Offset, po.LeaderEpoch, ptr(po.Metadata)
			t := &g.Topics[len(g.Topics)-1]
			t.Partitions = append(t.Partitions, p)
		}
		return
	}
	if code != 0 {
		if r.Version >= 2 {
			r.ErrorCode = code
			return
		}
		// v0-v1 have no group-level error: every partition asked for has it.
		for _, t := range req.Topics {
			rt := kmsg.NewOffsetFetchResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewOffsetFetchResponseTopicPartition()
				rp.Partition, rp.Offset, rp.Metadata, rp.ErrorCode = p, -1, ptr(""), code
				rt.Partitions = append(rt.Partitions, rp)
			}
			r.Topics = append(r.Topics, rt)
		}
		return
	}
	for _, po := range a.Offsets {
		if n := len(r.Topics); n == 0 || r.Topics[n-1].Topic != po.Topic {
			t := kmsg.NewOffsetFetchResponseTopic()
			t.Topic = po.Topic
			r.Topics = append(r.Topics, t)
		}
		p := kmsg.NewOffsetFetchResponseTopicPartition()
		p.Partition, p.Offset, p.LeaderEpoch, p.Metadata = po.Partition, po.Offset, po.LeaderEpoch, ptr(po.Metadata)
		t := &r.Topics[len(r.Topics)-1]
		t.Partitions = append(t.Partitions, p)
	}
}

// extDescribeGroups describes the groups b coordinates
// (GroupCoordinator.handleDescribeGroup, 3.7): a group b does not know is
// Dead with no error; the members' metadata and assignments only in a
// Stable group (GroupMetadata.summary); NOT_COORDINATOR for a group of
// another coordinator.
func (w *World) extDescribeGroups(b *broker.Broker, r *kmsg.DescribeGroupsRequest) *kmsg.DescribeGroupsResponse {
	resp := r.ResponseKind().(*kmsg.DescribeGroupsResponse)
	stored := w.storedGroups(b)
	for _, name := range r.Groups {
		d := kmsg.NewDescribeGroupsResponseGroup()
		d.Group = name
		d.AuthorizedOperations = -2147483648 // not asked for (Integer.MIN_VALUE)
		if w.coordinatorOf(name) != b {
			d.ErrorCode = kafkaerr.NotCoordinator
			resp.Groups = append(resp.Groups, d)
			continue
		}
		d.State = group.Dead.String()
		var st group.GroupStatus
		ok := false
		if b.RunningCoordinator() != nil {
			st, ok = b.RunningCoordinator().Group(name)
		}
		switch {
		case ok:
			d.State, d.ProtocolType = st.State.String(), st.ProtocolType
		case stored(name):
			d.State = group.Empty.String() // a group that only stores offsets
		}
		stable := ok && st.State == group.Stable
		if stable {
			d.Protocol = st.Protocol
		}
		for _, m := range st.Members {
			dm := kmsg.NewDescribeGroupsResponseGroupMember()
			dm.MemberID, dm.ClientID, dm.ClientHost = m.MemberID, m.ClientID, m.ClientHost
			if dm.ClientHost == "" {
				dm.ClientHost = groupHost
			}
			if m.GroupInstanceID != "" {
				dm.InstanceID = ptr(m.GroupInstanceID)
			}
			dm.ProtocolMetadata, dm.MemberAssignment = []byte{}, []byte{}
			if stable {
				dm.ProtocolMetadata = m.Protocol.Metadata
				if dm.ProtocolMetadata == nil {
					dm.ProtocolMetadata = encodeSubscription(st.Protocol, m.Protocol.Subscription)
				}
				dm.MemberAssignment = m.AssignmentData
				if dm.MemberAssignment == nil {
					dm.MemberAssignment = encodeAssignment(m.Assignment)
				}
			}
			d.Members = append(d.Members, dm)
		}
		resp.Groups = append(resp.Groups, d)
	}
	return resp
}

// extListGroups lists the groups b coordinates now, with the states filter
// of v4+ (KIP-518; case-insensitive, as Kafka's ClassicGroupState.parse):
// the groups its coordinator hosts and those that only store offsets in
// the __consumer_offsets partitions it leads.
func (w *World) extListGroups(b *broker.Broker, r *kmsg.ListGroupsRequest) *kmsg.ListGroupsResponse {
	resp := r.ResponseKind().(*kmsg.ListGroupsResponse)
	type entry struct{ state, protocolType string }
	groups := map[string]entry{}
	for _, name := range w.offsetsOnlyGroups(b) {
		groups[name] = entry{state: group.Empty.String()}
	}
	if b.RunningCoordinator() != nil {
		for _, g := range b.RunningCoordinator().Groups() {
			if g.State != group.Dead && w.coordinatorOf(g.GroupID) == b {
				groups[g.GroupID] = entry{g.State.String(), g.ProtocolType}
			}
		}
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := groups[n]
		if len(r.StatesFilter) > 0 && !slices.ContainsFunc(r.StatesFilter, func(s string) bool { return strings.EqualFold(s, e.state) }) {
			continue
		}
		lg := kmsg.NewListGroupsResponseGroup()
		lg.Group, lg.ProtocolType = n, e.protocolType
		if r.Version >= 4 {
			lg.GroupState = e.state
		}
		if r.Version >= 5 {
			lg.GroupType = "classic"
		}
		resp.Groups = append(resp.Groups, lg)
	}
	return resp
}

// storedGroups returns a test of whether a group has committed offsets in
// b's replica of its __consumer_offsets partition, which reads each
// partition once, when first asked (a request may name thousands of
// groups).
func (w *World) storedGroups(b *broker.Broker) func(group string) bool {
	byPartition := map[partitionKey]map[string]bool{}
	return func(name string) bool {
		tp := w.offsetsPartition(name)
		groups, ok := byPartition[tp]
		if !ok {
			if s := b.Partition(tp); s != nil {
				groups = broker.StoredIn(s.Log.Mirror(), s.Node.Progress().HighWatermark)
			}
			byPartition[tp] = groups
		}
		return groups[name]
	}
}

// offsetsOnlyGroups lists the groups with committed offsets in the
// __consumer_offsets partitions b leads, sorted.
func (w *World) offsetsOnlyGroups(b *broker.Broker) []string {
	t := w.topic(OffsetsTopic)
	if t == nil {
		return nil
	}
	var out []string
	for p := range t.Assignment {
		tp := partitionKey{Topic: OffsetsTopic, Partition: int32(p)}
		s := b.Partition(tp)
		if s == nil || w.PartitionLeader(tp.Topic, tp.Partition) != b.ID() {
			continue
		}
		// one pass over the partition, not one a group
		for g := range broker.StoredIn(s.Log.Mirror(), s.Node.Progress().HighWatermark) {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// decodeSubscription reads a consumer's ConsumerProtocolSubscription for
// assignor name into the subscription the world's assignors read. The
// eager sticky assignor's previous assignment travels in the user data
// (StickyAssignorUserData, kmsg's StickyMemberMetadata) when the owned
// partitions are empty, as Kafka's StickyAssignor reads it. Bytes that do
// not parse subscribe to nothing.
func decodeSubscription(name string, meta []byte) group.Subscription {
	s := group.Subscription{Generation: -1}
	m := kmsg.NewConsumerMemberMetadata()
	if err := m.ReadFrom(meta); err != nil {
		return s
	}
	s.Topics = slices.Clone(m.Topics)
	for _, o := range m.OwnedPartitions {
		for _, p := range o.Partitions {
			s.OwnedPartitions = append(s.OwnedPartitions, group.TopicPartition{Topic: o.Topic, Partition: p})
		}
	}
	if m.Version >= 2 {
		s.Generation = m.Generation
	}
	if name == "sticky" && len(s.OwnedPartitions) == 0 && len(m.UserData) > 0 {
		ud := kmsg.NewStickyMemberMetadata()
		if err := ud.ReadFrom(m.UserData); err == nil {
			for _, a := range ud.CurrentAssignment {
				for _, p := range a.Partitions {
					s.OwnedPartitions = append(s.OwnedPartitions, group.TopicPartition{Topic: a.Topic, Partition: p})
				}
			}
			if s.Generation < 0 {
				s.Generation = ud.Generation
			}
		}
	}
	return s
}

// encodeSubscription writes a world member's subscription as Kafka 3.7's
// consumer sends it (ConsumerProtocolSubscription v3), with the sticky
// assignors' user data (the previous assignment and its generation,
// StickyAssignorUserData as franz-go sends it too) for an external leader.
func encodeSubscription(name string, s group.Subscription) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version = 3
	m.Topics = slices.Clone(s.Topics)
	if m.Topics == nil {
		m.Topics = []string{}
	}
	m.Generation = s.Generation
	ud := kmsg.NewStickyMemberMetadata()
	ud.Generation = s.Generation
	for _, tp := range group.SortedPartitions(s.OwnedPartitions) {
		if n := len(m.OwnedPartitions); n == 0 || m.OwnedPartitions[n-1].Topic != tp.Topic {
			o := kmsg.NewConsumerMemberMetadataOwnedPartition()
			o.Topic = tp.Topic
			m.OwnedPartitions = append(m.OwnedPartitions, o)
			a := kmsg.NewStickyMemberMetadataCurrentAssignment()
			a.Topic = tp.Topic
			ud.CurrentAssignment = append(ud.CurrentAssignment, a)
		}
		o := &m.OwnedPartitions[len(m.OwnedPartitions)-1]
		o.Partitions = append(o.Partitions, tp.Partition)
		a := &ud.CurrentAssignment[len(ud.CurrentAssignment)-1]
		a.Partitions = append(a.Partitions, tp.Partition)
	}
	if name == "sticky" || name == "cooperative-sticky" {
		m.UserData = ud.AppendTo(nil)
	}
	return m.AppendTo(nil)
}

// decodeAssignment reads a ConsumerProtocolAssignment into partitions, in
// its order; bytes that do not parse assign nothing.
func decodeAssignment(data []byte) []group.TopicPartition {
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(data); err != nil {
		return nil
	}
	var out []group.TopicPartition
	for _, t := range a.Topics {
		for _, p := range t.Partitions {
			out = append(out, group.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	return out
}

// encodeAssignment writes partitions as a ConsumerProtocolAssignment
// (version 3, the layout of every version, as Kafka 3.7's consumer
// writes it), topics in the order they first appear.
func encodeAssignment(tps []group.TopicPartition) []byte {
	a := kmsg.NewConsumerMemberAssignment()
	a.Version = 3
	a.Topics = []kmsg.ConsumerMemberAssignmentTopic{}
	for _, tp := range tps {
		i := slices.IndexFunc(a.Topics, func(t kmsg.ConsumerMemberAssignmentTopic) bool { return t.Topic == tp.Topic })
		if i < 0 {
			t := kmsg.NewConsumerMemberAssignmentTopic()
			t.Topic = tp.Topic
			a.Topics = append(a.Topics, t)
			i = len(a.Topics) - 1
		}
		a.Topics[i].Partitions = append(a.Topics[i].Partitions, tp.Partition)
	}
	return a.AppendTo(nil)
}

// externalMemberInfo completes mi, a member that joined from outside the
// world: its host is the client's address, and it reads what the
// coordinator assigned it (whether it fetches is the client's business).
func externalMemberInfo(mi MemberInfo, m group.MemberStatus) MemberInfo {
	mi.Host = m.ClientHost
	mi.Partitions = mi.Assignment
	if m.AwaitingJoin || m.AwaitingSync {
		mi.Idle = "an external client, rebalancing"
	}
	return mi
}
