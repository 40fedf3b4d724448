package broker

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// coordinatorState is a broker's group coordinator: the pure state machine
// and the answers it holds back until their offset commits are stored
// (appended to __consumer_offsets and acknowledged by the ISR, acks=all as
// Kafka's coordinator writes them). It lives and dies with the broker
// process; what outlives it is in the log: committed offsets and each
// group's metadata (groupstore.go), which the next coordinator loads.
type coordinatorState struct {
	c *group.Coordinator
	// cg is the coordinator of the consumer-protocol groups (KIP-848),
	// beside the classic one: a group id belongs to one of them
	// (consumergroups.go).
	cg     *group.ConsumerGroupCoordinator
	corr   int64
	parked map[int64][]group.Outgoing
	// storing maps the correlation id of a group record's append to the
	// record's store id (group.Coordinator.GroupStored).
	storing map[int64]int64
	// awaiting are the JoinGroup and SyncGroup requests it holds, by
	// member process ("client#inc"), until it answers (groupconn.go).
	awaiting map[string]group.Request
}

// RequestTimeoutMs is the timeout of the coordinator's appends of
// commits to its own replica (request.timeout.ms, 30 s).
const RequestTimeoutMs = 30000

// coordinator returns b's coordinator, starting it on first use.
func (b *Broker) coordinator(env Env) *coordinatorState {
	if b.coord == nil {
		b.coord = b.newCoordinator(env)
	}
	return b.coord
}

// newCoordinator is a coordinator of b's process started now: it hosts no
// group yet, and finds the committed offsets in b's replicas' logs.
func (b *Broker) newCoordinator(env Env) *coordinatorState {
	cfg := b.cfg.Group
	// Member ids carry a UUID, as Kafka's do, from a stream of the
	// world's seed, the broker's id and its process incarnation (no two
	// coordinators, nor a restarted broker's, hand out the same ids).
	cfg.MemberIDSeed = max(1, cfg.MemberIDSeed^uint64(b.id)<<20^uint64(b.incarnation)<<40)
	c, err := group.NewCoordinator(cfg, logOffsetStore{b: b}, env.Now())
	if err != nil {
		panic(err) // the config was validated by New
	}
	cg, err := group.NewConsumerGroupCoordinator(b.cfg.ConsumerGroup, logOffsetStore{b: b}, env.Now())
	if err != nil {
		panic(err) // the config was validated by New
	}
	return &coordinatorState{c: c, cg: cg, parked: map[int64][]group.Outgoing{}}
}

// Coordinates reports whether b is the group coordinator of groupID: it
// runs and its replica leads the group's __consumer_offsets partition, as
// the controller has it (FindCoordinator answers with that broker).
func (b *Broker) Coordinates(env Env, groupID string) bool {
	k := metadata.OffsetsPartition(groupID, b.cfg.OffsetsTopicNumPartitions)
	if b.state != BrokerRunning || env.Leader(k) != b.id {
		return false
	}
	s := b.replicas[k]
	return s != nil && s.Node.Progress().Role == replica.RoleLeader
}

// deliverGroupRequest hands a consumer's request to the coordinator. A
// broker that does not lead the group's offsets partition answers
// NOT_COORDINATOR (the consumer looks the coordinator up again).
func (b *Broker) deliverGroupRequest(env Env, e *netsim.Envelope) {
	addr := e.Client + "#" + strconv.Itoa(e.ClientInc)
	if resp := b.unsupported(e.GroupReq); resp != nil {
		env.Send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: e.Client, ClientInc: e.ClientInc, GroupResp: resp})
		return
	}
	if !b.Coordinates(env, e.GroupReq.Group()) {
		env.Send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: e.Client, ClientInc: e.ClientInc, GroupResp: notCoordinator(e.GroupReq)})
		return
	}
	cs := b.coordinator(env)
	if r, ok := e.GroupReq.(group.LeaveGroup); ok {
		env.Record(event.Group, b.id, nil, "%s: %s leaves (LeaveGroup %s)", r.GroupID, e.Client, r.MemberID)
	}
	cs.tick(env)
	cs.noteAwaiting(addr, e.GroupReq)
	req := e.GroupReq
	if hb, ok := req.(group.ConsumerGroupHeartbeat); ok && hb.ClientHost == "" {
		hb.ClientHost = GroupHost // the address of the world's own consumers, which Kafka takes from the connection
		req = hb
	}
	b.stepGroup(env, addr, req)
	b.processCoordinator(env)
}

func notCoordinator(r group.Request) group.Response {
	switch r := r.(type) {
	case group.JoinGroup:
		return group.JoinGroupResponse{Error: group.NotCoordinator}
	case group.SyncGroup:
		return group.SyncGroupResponse{Error: group.NotCoordinator}
	case group.Heartbeat:
		return group.HeartbeatResponse{Error: group.NotCoordinator}
	case group.LeaveGroup:
		return group.LeaveGroupResponse{Error: group.NotCoordinator}
	case group.OffsetCommit:
		return group.OffsetCommitResponse{Error: group.NotCoordinator, Offsets: r.Offsets, Seq: r.Seq}
	case group.ConsumerGroupHeartbeat:
		return group.ConsumerGroupHeartbeatResponse{Error: group.NotCoordinator}
	}
	return group.OffsetFetchResponse{Error: group.NotCoordinator}
}

// tickCoordinator moves the coordinator's clock (session expiry, join
// phases) and sends what it produced.
func (b *Broker) tickCoordinator(env Env) {
	if b.coord == nil {
		return
	}
	b.tickCoordinatorClock(env)
	b.processCoordinator(env)
	b.unloadResigned(env)
	env.UnloadResignedExternal(b.id)
}

// tickCoordinatorClock moves the coordinators' clocks to now and records
// the members whose sessions expired and those fenced.
func (b *Broker) tickCoordinatorClock(env Env) {
	beforeCG := b.coord.cg.Groups()
	b.reportExpiries(env, b.coord.tick(env))
	b.reportFenced(env, beforeCG)
}

// reportExpiries records the members a Tick removed: their session
// expired (or, never synced, their rebalance timeout passed).
func (b *Broker) reportExpiries(env Env, removed []group.Removed) {
	for _, m := range removed {
		env.Record(event.Group, b.id, nil, "%s: member %s removed: nothing from it within session.timeout.ms (or the rebalance timeout); the group rebalances",
			m.GroupID, m.MemberID)
	}
}

// processCoordinator takes the coordinator's Ready until it has nothing
// more: commits first, appended to __consumer_offsets through the local
// leader replica (one batch per offsets partition), the answers waiting
// for that append to be acknowledged; then each group record, appended as
// a batch of its own (appendGroupRecords).
func (b *Broker) processCoordinator(env Env) {
	cs := b.coord
	if cs == nil {
		return
	}
	for cs.c.HasReady() || cs.cg.HasReady() {
		if cs.c.HasReady() {
			b.processGroupReady(env, cs.c.Ready())
		}
		if cs.cg.HasReady() {
			b.processGroupReady(env, cs.cg.Ready())
		}
	}
}

// processGroupReady takes one of the coordinators' Ready: its commits
// and consumer group records, appended together (one batch per offsets
// partition, as Kafka 4 appends one operation's records), its answers,
// held until that append is acknowledged, and its classic group records.
func (b *Broker) processGroupReady(env Env, rd group.Ready) {
	cs := b.coord
	for _, r := range rd.Responses {
		b.logGroupResponse(env, r)
	}
	switch corr, err := b.appendGroupWrites(env, rd.Commits, rd.ConsumerGroups, len(rd.Responses) > 0); {
	case len(rd.Commits) == 0 && len(rd.ConsumerGroups) == 0:
		b.sendResponses(env, rd.Responses)
	case err != nil:
		env.Record(event.Group, b.id, nil, "coordinator: offsets and group records not stored: %v", err)
		b.sendResponses(env, failWrites(rd.Responses, replica.NotLeaderOrFollower))
	default:
		cs.parked[corr] = rd.Responses
	}
	b.appendGroupRecords(env, rd.Groups)
}

// appendGroupWrites produces the commit records, then the consumer group
// records, to the offsets partitions this broker leads, acks=all, one
// batch per partition, and returns the correlation id of the last
// request. Answers wait for one append only: with answers, everything must
// go to one partition (it does: one request is about one group).
func (b *Broker) appendGroupWrites(env Env, commits []group.OffsetCommitRecord, recs []group.ConsumerGroupRecord, answers bool) (int64, error) {
	byPartition := map[tp][]replica.Record{}
	var order []tp
	add := func(groupID string, rec replica.Record) {
		k := metadata.OffsetsPartition(groupID, b.cfg.OffsetsTopicNumPartitions)
		if _, ok := byPartition[k]; !ok {
			order = append(order, k)
		}
		byPartition[k] = append(byPartition[k], rec)
	}
	for _, c := range commits {
		rec := replica.Record{Key: group.AppendOffsetCommitKey(nil, c.Group, c.TopicPartition)}
		if !c.Tombstone {
			rec.Value = group.AppendOffsetCommitValue(nil, c)
		}
		add(c.Group, rec)
	}
	for _, r := range recs {
		rec := replica.Record{Key: group.AppendConsumerGroupRecordKey(nil, r)}
		if !r.Tombstone {
			rec.Value = group.AppendConsumerGroupRecordValue(nil, r)
		}
		add(r.Group, rec)
	}
	if answers && len(order) > 1 {
		return 0, fmt.Errorf("%w: records for %d offsets partitions in one answer", metadata.ErrInvalidConfig, len(order))
	}
	var corr int64
	for _, k := range order {
		var err error
		if corr, err = b.appendOffsetsRecords(env, k, byPartition[k]); err != nil {
			return 0, err
		}
	}
	return corr, nil
}

// appendCommits produces commit records alone (offset tombstones), as
// appendGroupWrites does.
func (b *Broker) appendCommits(env Env, commits []group.OffsetCommitRecord) (int64, error) {
	return b.appendGroupWrites(env, commits, nil, false)
}

// appendOffsetsRecords produces records to offsets partition tp through
// b's replica, one batch, acks=all, and returns the request's correlation
// id; the answer comes to deliverToCoordinator.
func (b *Broker) appendOffsetsRecords(env Env, tp tp, records []replica.Record) (int64, error) {
	cs := b.coord
	s := b.replicas[tp]
	if s == nil {
		return 0, fmt.Errorf("no replica of %s", tp)
	}
	s.changing()
	cs.corr++
	err := b.wake(s, env.Now()).Step(replica.Message{Type: replica.MsgProduce, From: netsim.CoordinatorBase + b.id, To: b.id, CorrelationID: cs.corr,
		Records: records, Acks: replica.AcksAll, TimeoutMs: RequestTimeoutMs})
	if err != nil {
		return 0, err
	}
	if err := b.processReady(env, s); err != nil {
		return 0, err
	}
	return cs.corr, nil
}

// deliverToCoordinator handles the answer to an offsets append: the parked
// answers go out, with OffsetCommit refused if the append failed.
func (b *Broker) deliverToCoordinator(env Env, e *netsim.Envelope) {
	if b.coord == nil {
		return
	}
	if id, ok := b.coord.storing[e.Resp.CorrelationID]; ok {
		delete(b.coord.storing, e.Resp.CorrelationID)
		b.groupStored(env, e, id)
		return
	}
	out, ok := b.coord.parked[e.Resp.CorrelationID]
	if !ok {
		return
	}
	delete(b.coord.parked, e.Resp.CorrelationID)
	if e.Resp.Error != replica.None {
		env.Record(event.Group, b.id, &e.TP, "coordinator: offsets append failed: %s", e.Resp.Error)
		out = failWrites(out, e.Resp.Error)
	}
	b.sendResponses(env, out)
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

// heartbeatAppendError is the ConsumerGroupHeartbeat error for an append
// of its records that failed with code, as Kafka 4's
// CoordinatorOperationExceptionHelper maps a failed write: too few
// in-sync replicas or a timeout COORDINATOR_NOT_AVAILABLE, a replica no
// longer leading NOT_COORDINATOR, a record too large UNKNOWN_SERVER_ERROR,
// anything else itself.
func heartbeatAppendError(code replica.ErrorCode) group.ErrorCode {
	switch code {
	case replica.NotEnoughReplicas, replica.RequestTimedOut:
		return group.CoordinatorNotAvailable
	case replica.NotLeaderOrFollower:
		return group.NotCoordinator
	case replica.MessageTooLarge, replica.RecordListTooLarge:
		return group.UnknownServerError
	}
	return group.ErrorCode(code)
}

// failWrites replaces the answers in out whose writes failed with the
// append's error code: an OffsetCommit's as commitAppendError maps it, a
// ConsumerGroupHeartbeat's as heartbeatAppendError does (its member then
// looks the coordinator up again, or retries). The coordinator keeps the
// state it answered from (Kafka reverts it to the last committed offset:
// not modelled; a member retrying with its previous epoch is accepted).
func failWrites(out []group.Outgoing, code replica.ErrorCode) []group.Outgoing {
	res := make([]group.Outgoing, len(out))
	for i, o := range out {
		switch r := o.Response.(type) {
		case group.OffsetCommitResponse:
			r.Error = commitAppendError(code)
			o.Response = r
		case group.ConsumerGroupHeartbeatResponse:
			o.Response = group.ConsumerGroupHeartbeatResponse{Error: heartbeatAppendError(code)}
		}
		res[i] = o
	}
	return res
}

// sendResponses sends coordinator answers to their consumers.
func (b *Broker) sendResponses(env Env, out []group.Outgoing) {
	for _, o := range out {
		if b.coord != nil {
			b.coord.answered(o.To, o.Response)
		}
		if env.ExternalGroupAnswered(b.id, o) {
			continue
		}
		name, inc, ok := strings.Cut(o.To, "#")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(inc)
		env.Send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: name, ClientInc: n, GroupResp: o.Response})
	}
}

// logGroupResponse records the answers that change a group's course.
func (b *Broker) logGroupResponse(env Env, o group.Outgoing) {
	name, _, _ := strings.Cut(o.To, "#")
	switch r := o.Response.(type) {
	case group.JoinGroupResponse:
		if r.Error == group.None {
			env.Record(event.Group, b.id, nil, "%s joined generation %d as %s (leader %s, %s)", name, r.GenerationID, r.MemberID, r.Leader, r.ProtocolName)
		}
	case group.SyncGroupResponse:
		if r.Error == group.None {
			env.Record(event.Group, b.id, nil, "%s assigned %s", name, group.FormatPartitions(r.Assignment))
		}
	case group.HeartbeatResponse:
		if r.Error != group.None {
			env.Record(event.Group, b.id, nil, "%s heartbeat: %s", name, r.Error)
		}
	case group.OffsetCommitResponse:
		if r.Error != group.None {
			env.Record(event.Group, b.id, nil, "%s commit refused: %s", name, r.Error)
		}
	case group.ConsumerGroupHeartbeatResponse:
		switch {
		case r.Error != group.None:
			env.Record(event.Group, b.id, nil, "%s heartbeat: %s", name, r.Error)
		case r.MemberEpoch < 0:
			env.Record(event.Group, b.id, nil, "%s left (epoch %d)", name, r.MemberEpoch)
		case r.Assignment != nil:
			env.Record(event.Group, b.id, nil, "%s at epoch %d may own %s", name, r.MemberEpoch, group.FormatPartitions(r.Assignment))
		}
	}
}

// noteAwaiting remembers a JoinGroup or SyncGroup the coordinator holds
// until it answers.
func (cs *coordinatorState) noteAwaiting(addr string, r group.Request) {
	switch r.(type) {
	case group.JoinGroup, group.SyncGroup:
		if cs.awaiting == nil {
			cs.awaiting = map[string]group.Request{}
		}
		cs.awaiting[addr] = r
	}
}

// answered forgets the awaited request an answer to addr ends: a
// JoinGroup's answer ends a JoinGroup, a SyncGroup's a SyncGroup. (A
// member whose SyncGroup timed out joins again; the JoinGroup that starts
// the rebalance is answered later, the old SyncGroup at once with
// REBALANCE_IN_PROGRESS, which must not forget the JoinGroup.)
func (cs *coordinatorState) answered(addr string, r group.Response) {
	switch r.(type) {
	case group.JoinGroupResponse:
		if _, ok := cs.awaiting[addr].(group.JoinGroup); ok {
			delete(cs.awaiting, addr)
		}
	case group.SyncGroupResponse:
		if _, ok := cs.awaiting[addr].(group.SyncGroup); ok {
			delete(cs.awaiting, addr)
		}
	}
}

// coordinatorGone breaks the connections of every member waiting at b's
// coordinator: b's process ends.
func (b *Broker) coordinatorGone(env Env) {
	if b.coord == nil {
		return
	}
	for _, addr := range awaitingAddrs(b.coord.awaiting) {
		client, inc := splitAwaitingKey(addr)
		env.RequestFailed(b.id, client, inc, b.coord.awaiting[addr])
	}
	b.coord.awaiting = nil
	// The commits and heartbeats whose answers wait for their append
	// fail too.
	for _, corr := range slices.Sorted(maps.Keys(b.coord.parked)) {
		for _, o := range b.coord.parked[corr] {
			client, inc, ok := strings.Cut(o.To, "#")
			if !ok {
				continue
			}
			n, _ := strconv.Atoi(inc)
			switch r := o.Response.(type) {
			case group.OffsetCommitResponse:
				env.RequestFailed(b.id, client, n, group.OffsetCommit{Offsets: r.Offsets, Seq: r.Seq})
			case group.ConsumerGroupHeartbeatResponse:
				env.RequestFailed(b.id, client, n, group.ConsumerGroupHeartbeat{})
			}
		}
	}
	b.coord.parked = map[int64][]group.Outgoing{}
	b.coord.storing = nil
}

// unloadResigned answers NOT_COORDINATOR to the members waiting at b's
// coordinator for a group whose offsets partition b no longer leads
// (GroupCoordinator.onGroupUnloaded).
func (b *Broker) unloadResigned(env Env) {
	if b.coord == nil || len(b.coord.awaiting) == 0 {
		return
	}
	for _, addr := range awaitingAddrs(b.coord.awaiting) {
		r := b.coord.awaiting[addr]
		if b.Coordinates(env, r.Group()) {
			continue
		}
		delete(b.coord.awaiting, addr)
		client, inc := splitAwaitingKey(addr)
		env.Record(event.Group, b.id, nil, "%s: no longer the coordinator of %s: NOT_COORDINATOR to %s", "coordinator", r.Group(), client)
		env.Send(netsim.Envelope{From: b.id, To: netsim.ConsumerNode, Kind: netsim.KindGroupResponse, Client: client, ClientInc: inc, GroupResp: notCoordinator(r)})
	}
}

func splitAwaitingKey(addr string) (string, int) {
	name, inc, _ := strings.Cut(addr, "#")
	n, _ := strconv.Atoi(inc)
	return name, n
}

func awaitingAddrs(m map[string]group.Request) []string { return slices.Sorted(maps.Keys(m)) }

// RemoveOffsets is GroupCoordinator.onPartitionsDeleted on b's running
// coordinator: the committed offsets its groups hold for partitions of
// topic are deleted with tombstones (GroupMetadataManager.cleanupGroupMetadata).
func (b *Broker) RemoveOffsets(env Env, topic string) {
	if b.coord == nil || b.state != BrokerRunning {
		return
	}
	store := logOffsetStore{b: b}
	var ids []string
	for _, g := range b.coord.c.Groups() {
		ids = append(ids, g.GroupID)
	}
	for _, g := range b.coord.cg.Groups() {
		ids = append(ids, g.GroupID)
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := struct{ GroupID string }{id}
		var recs []group.OffsetCommitRecord
		var tps []group.TopicPartition
		for _, k := range store.CommittedPartitions(g.GroupID) {
			if k.Topic == topic {
				tps = append(tps, k)
				recs = append(recs, group.OffsetCommitRecord{Group: g.GroupID, PartitionOffset: group.PartitionOffset{TopicPartition: k, LeaderEpoch: -1},
					CommitTimestampMs: env.Now(), Tombstone: true})
			}
		}
		if len(recs) == 0 {
			continue
		}
		if _, err := b.appendCommits(env, recs); err != nil {
			env.Record(event.Group, b.id, nil, "coordinator: %s: offsets of %s not removed: %v", g.GroupID, topic, err)
			continue
		}
		env.Record(event.Group, b.id, nil, "coordinator: %s: committed offsets of %s removed (tombstones)", g.GroupID, group.FormatPartitions(tps))
	}
}

// DeleteGroup deletes group name at b's coordinator
// (group.Coordinator.DeleteGroup): an Empty group becomes Dead and its
// committed offsets are tombstoned in its __consumer_offsets partition. by
// says who asked, for the event. It returns Kafka's error code.
func (b *Broker) DeleteGroup(env Env, name, by string) group.ErrorCode {
	cs := b.coordinator(env)
	cs.tick(env)
	var code group.ErrorCode
	if ok, _ := cs.cg.Hosts(name); ok {
		code = cs.cg.DeleteGroup(name)
	} else {
		code = cs.c.DeleteGroup(name)
	}
	if code == group.None {
		env.Record(event.Group, b.id, nil, "%s: deleted by %s, its committed offsets tombstoned", name, by)
	}
	b.processCoordinator(env) // the tombstones
	return code
}
