package cluster

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// OffsetsTopic is the internal topic of committed offsets.
const OffsetsTopic = metadata.OffsetsTopic

// coordinatorState is a broker's group coordinator: the pure state machine
// and the answers it holds back until their offset commits are stored
// (appended to __consumer_offsets and acknowledged by the ISR, acks=all as
// Kafka's coordinator writes them). It lives and dies with the broker
// process: group membership is not persisted (group package), committed
// offsets are, in the log.
type coordinatorState struct {
	c      *group.Coordinator
	corr   int64
	parked map[int64][]group.Outgoing
	// awaiting are the JoinGroup and SyncGroup requests it holds, by
	// member process ("client#inc"), until it answers (groupconn.go).
	awaiting map[string]group.Request
}

// ensureOffsetsTopic creates __consumer_offsets on first use, as a broker
// auto-creates it on the first FindCoordinator: compacted,
// offsets.topic.num.partitions partitions, offsets.topic.replication.factor
// replicas.
func (w *World) ensureOffsetsTopic() error {
	if w.topic(OffsetsTopic) != nil {
		return nil
	}
	cfg := w.cfg.Log
	cfg.CleanupPolicy = "compact"
	return w.createTopic(TopicSpec{Name: OffsetsTopic, Partitions: w.cfg.OffsetsTopicNumPartitions,
		ReplicationFactor: w.cfg.OffsetsTopicReplicationFactor, Config: &cfg})
}

// offsetsPartition is the __consumer_offsets partition of groupID (GroupCoordinator.partitionFor).
func (w *World) offsetsPartition(groupID string) partitionKey {
	p, _ := group.OffsetsPartition(groupID, int32(w.cfg.OffsetsTopicNumPartitions))
	return partitionKey{Topic: OffsetsTopic, Partition: p}
}

// coordinatorOf returns the running broker whose replica leads groupID's
// offsets partition (FindCoordinator), or nil.
func (w *World) coordinatorOf(groupID string) *broker {
	tp := w.offsetsPartition(groupID)
	leader := w.PartitionLeader(tp.Topic, tp.Partition)
	if leader == replica.NoLeader {
		return nil
	}
	b := w.brokers[leader-1]
	s := b.replicas[tp]
	if b.state != BrokerRunning || s == nil || s.node.Progress().Role != replica.RoleLeader {
		return nil
	}
	return b
}

// coordinator returns b's coordinator, starting it on first use.
func (w *World) coordinator(b *broker) *coordinatorState {
	if b.coord == nil {
		c, err := group.NewCoordinator(*w.cfg.Group, logOffsetStore{w: w, b: b}, w.now)
		if err != nil {
			panic(err) // the config was validated by New
		}
		b.coord = &coordinatorState{c: c, parked: map[int64][]group.Outgoing{}}
	}
	return b.coord
}

// deliverGroupRequest hands a consumer's request to the coordinator. A
// broker that does not lead the group's offsets partition answers
// NOT_COORDINATOR (the consumer looks the coordinator up again).
func (w *World) deliverGroupRequest(b *broker, e *netsim.Envelope) {
	addr := e.Client + "#" + strconv.Itoa(e.ClientInc)
	if w.coordinatorOf(e.GroupReq.Group()) != b {
		w.send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: e.Client, ClientInc: e.ClientInc, GroupResp: notCoordinator(e.GroupReq)})
		return
	}
	cs := w.coordinator(b)
	if r, ok := e.GroupReq.(group.LeaveGroup); ok {
		w.record(EventGroup, b.id, nil, "%s: %s leaves (LeaveGroup %s)", r.GroupID, e.Client, r.MemberID)
	}
	cs.c.Tick(w.now)
	cs.noteAwaiting(addr, e.GroupReq)
	if err := cs.c.Step(addr, e.GroupReq); err != nil {
		w.record(EventGroup, b.id, nil, "coordinator: %v", err)
	}
	w.processCoordinator(b)
}

func notCoordinator(r group.Request) group.Response {
	switch r.(type) {
	case group.JoinGroup:
		return group.JoinGroupResponse{Error: group.NotCoordinator}
	case group.SyncGroup:
		return group.SyncGroupResponse{Error: group.NotCoordinator}
	case group.Heartbeat:
		return group.HeartbeatResponse{Error: group.NotCoordinator}
	case group.LeaveGroup:
		return group.LeaveGroupResponse{Error: group.NotCoordinator}
	case group.OffsetCommit:
		c := r.(group.OffsetCommit)
		return group.OffsetCommitResponse{Error: group.NotCoordinator, Offsets: c.Offsets, Seq: c.Seq}
	}
	return group.OffsetFetchResponse{Error: group.NotCoordinator}
}

// tickCoordinator moves the coordinator's clock (session expiry, join
// phases) and sends what it produced.
func (w *World) tickCoordinator(b *broker) {
	if b.coord == nil {
		return
	}
	before := b.coord.c.Groups()
	b.coord.c.Tick(w.now)
	w.reportExpiries(b, before)
	w.processCoordinator(b)
	w.unloadResigned(b)
	w.unloadResignedExternal(b)
}

// reportExpiries records the members a Tick removed: their session
// expired (or, never synced, their rebalance timeout passed).
func (w *World) reportExpiries(b *broker, before []group.GroupStatus) {
	for _, g := range before {
		after, _ := b.coord.c.Group(g.GroupID)
		for _, m := range g.Members {
			if !slices.ContainsFunc(after.Members, func(a group.MemberStatus) bool { return a.MemberID == m.MemberID }) {
				w.record(EventGroup, b.id, nil, "%s: member %s removed: nothing from it within session.timeout.ms (or the rebalance timeout); the group rebalances",
					g.GroupID, m.MemberID)
			}
		}
	}
}

// processCoordinator takes the coordinator's Ready: commits first, appended
// to __consumer_offsets through the local leader replica (one batch per
// offsets partition); the answers wait for that append to be acknowledged.
func (w *World) processCoordinator(b *broker) {
	cs := b.coord
	if cs == nil || !cs.c.HasReady() {
		return
	}
	rd := cs.c.Ready()
	for _, r := range rd.Responses {
		w.logGroupResponse(b, r)
	}
	if len(rd.Commits) == 0 {
		w.sendResponses(b, rd.Responses)
		return
	}
	corr, err := w.appendCommits(b, rd.Commits)
	if err != nil {
		w.record(EventGroup, b.id, nil, "coordinator: offsets not stored: %v", err)
		w.sendResponses(b, failCommits(rd.Responses, group.NotCoordinator))
		return
	}
	cs.parked[corr] = rd.Responses
}

// appendCommits produces the commit records to the offsets partitions this
// broker leads, acks=all, and returns the correlation id of the request.
func (w *World) appendCommits(b *broker, commits []group.OffsetCommitRecord) (int64, error) {
	cs := b.coord
	byPartition := map[partitionKey][]replica.Record{}
	var order []partitionKey
	for _, c := range commits {
		tp := w.offsetsPartition(c.Group)
		if _, ok := byPartition[tp]; !ok {
			order = append(order, tp)
		}
		rec := replica.Record{Key: group.AppendOffsetCommitKey(nil, c.Group, c.TopicPartition)}
		if !c.Tombstone {
			rec.Value = group.AppendOffsetCommitValue(nil, c)
		}
		byPartition[tp] = append(byPartition[tp], rec)
	}
	if len(order) != 1 {
		return 0, fmt.Errorf("%w: commits for %d offsets partitions in one answer", ErrInvalidConfig, len(order))
	}
	tp := order[0]
	s := b.replicas[tp]
	if s == nil {
		return 0, fmt.Errorf("no replica of %s", tp)
	}
	cs.corr++
	err := s.node.Step(replica.Message{Type: replica.MsgProduce, From: netsim.CoordinatorBase + b.id, To: b.id, CorrelationID: cs.corr,
		Records: byPartition[tp], Acks: replica.AcksAll, TimeoutMs: DefaultRequestTimeoutMs})
	if err != nil {
		return 0, err
	}
	if err := w.processReady(b, s); err != nil {
		return 0, err
	}
	return cs.corr, nil
}

// deliverToCoordinator handles the answer to an offsets append: the parked
// answers go out, with OffsetCommit refused if the append failed.
func (w *World) deliverToCoordinator(e *netsim.Envelope) {
	b := w.brokers[e.To-netsim.CoordinatorBase-1]
	if b.coord == nil {
		return
	}
	out, ok := b.coord.parked[e.Resp.CorrelationID]
	if !ok {
		return
	}
	delete(b.coord.parked, e.Resp.CorrelationID)
	if e.Resp.Error != replica.None {
		w.record(EventGroup, b.id, &e.TP, "coordinator: offsets append failed: %s", e.Resp.Error)
		out = failCommits(out, commitAppendError(e.Resp.Error))
	}
	w.sendResponses(b, out)
}

// commitAppendError is the OffsetCommit error for an offsets append that
// failed with code, as Kafka 3.7's
// GroupMetadataManager.maybeConvertOffsetCommitError maps it: too few
// in-sync replicas is COORDINATOR_NOT_AVAILABLE; a replica no longer
// leading, and anything else here, NOT_COORDINATOR (both send the client
// looking for the coordinator again).
func commitAppendError(code replica.ErrorCode) group.ErrorCode {
	switch code {
	case replica.NotEnoughReplicas, replica.NotEnoughReplicasAfterAppend:
		return group.CoordinatorNotAvailable
	}
	return group.NotCoordinator
}

// failCommits replaces the OffsetCommit answers in out by code.
func failCommits(out []group.Outgoing, code group.ErrorCode) []group.Outgoing {
	res := make([]group.Outgoing, len(out))
	for i, o := range out {
		if r, ok := o.Response.(group.OffsetCommitResponse); ok {
			r.Error = code
			o.Response = r
		}
		res[i] = o
	}
	return res
}

// sendResponses sends coordinator answers to their consumers.
func (w *World) sendResponses(b *broker, out []group.Outgoing) {
	for _, o := range out {
		if b.coord != nil {
			b.coord.answered(o.To, o.Response)
		}
		if w.extGroupAnswered(b, o) {
			continue
		}
		name, inc, ok := strings.Cut(o.To, "#")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(inc)
		w.send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: name, ClientInc: n, GroupResp: o.Response})
	}
}

// logGroupResponse records the answers that change a group's course.
func (w *World) logGroupResponse(b *broker, o group.Outgoing) {
	name, _, _ := strings.Cut(o.To, "#")
	switch r := o.Response.(type) {
	case group.JoinGroupResponse:
		if r.Error == group.None {
			w.record(EventGroup, b.id, nil, "%s joined generation %d as %s (leader %s, %s)", name, r.GenerationID, r.MemberID, r.Leader, r.ProtocolName)
		}
	case group.SyncGroupResponse:
		if r.Error == group.None {
			w.record(EventGroup, b.id, nil, "%s assigned %s", name, group.FormatPartitions(r.Assignment))
		}
	case group.HeartbeatResponse:
		if r.Error != group.None {
			w.record(EventGroup, b.id, nil, "%s heartbeat: %s", name, r.Error)
		}
	case group.OffsetCommitResponse:
		if r.Error != group.None {
			w.record(EventGroup, b.id, nil, "%s commit refused: %s", name, r.Error)
		}
	}
}
