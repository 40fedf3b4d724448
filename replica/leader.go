package replica

import (
	"fmt"
	"slices"
)

// leaderState is what only a leader keeps (Partition's leader-side state).
type leaderState struct {
	// leso is the leader epoch start offset: the LEO when this leadership began.
	leso int64
	// followers holds what the leader knows of each other replica.
	followers map[int32]*followerProgress
	// pendingISR is the ISR proposed to the controller and not yet answered,
	// pendingCorr the correlation id of the last AlterPartition carrying it.
	pendingISR    []int32
	pendingCorr   int64
	pendingSentMs int64
	// lastShrinkCheckMs is when the ISR shrink check last ran.
	lastShrinkCheckMs int64
	parkedFetches     []parkedFetch
	parkedProduces    []parkedProduce
	// producers is the idempotent producers' state, by producer id: a
	// value of fixed size each.
	producers map[int64]producerState
}

// followerProgress is the leader's view of one follower (Kafka's Replica state: LEO, lastCaughtUpTimeMs).
type followerProgress struct {
	// leo is the follower's last fetch offset, -1 before its first fetch in
	// this leadership.
	leo                  int64
	lastFetchMs          int64
	lastCaughtUpMs       int64
	leaderLEOAtLastFetch int64
	// sentHW is the high watermark of the last fetch answer with records
	// (or none) sent to the follower since its last full fetch (-1: none), which it
	// holds.
	sentHW int64
}

// parkedFetch is a follower fetch that found nothing, waiting for an append
// or for its deadline.
type parkedFetch struct {
	req        Message
	deadlineMs int64
	// parkedMs is when it was parked; held is set while the leader keeps
	// it in the follower's fetch session (session.go), since heldMs;
	// released once it was held and is to be answered.
	parkedMs, heldMs int64
	held, released   bool
}

// parkedProduce is an acks=all produce waiting for the HW to pass it.
type parkedProduce struct {
	resp       ProduceResponse
	lastOffset int64
	deadlineMs int64
}

func (n *Node) becomeLeader(s LeaderAndISR) error {
	// Re-elected in a newer epoch (a ZooKeeper-era controller shrink bumps
	// it before KRaft 3.6): parked requests stay parked. Otherwise none exist.
	parkedFetches, parkedProduces := n.lead.parkedFetches, n.lead.parkedProduces
	if n.role != RoleLeader {
		parkedFetches, parkedProduces = nil, nil
	}
	for i := range parkedFetches { // a new leadership answers what it holds at the wait's end
		if parkedFetches[i].held {
			parkedFetches[i].release(n.now)
		}
	}
	n.follow = followerState{corr: n.follow.corr}
	n.role = RoleLeader
	n.setPartition(s)
	leo := n.log.LogEndOffset()
	if n.cfg.Rules.CachesEpochOnElection() {
		if err := n.log.AssignEpoch(s.LeaderEpoch, leo); err != nil {
			return fmt.Errorf("%w: broker %d: assign epoch %d at %d: %w", ErrLog, n.cfg.ID, s.LeaderEpoch, leo, err)
		}
	}
	n.lead = leaderState{leso: leo, followers: map[int32]*followerProgress{}, lastShrinkCheckMs: n.now,
		parkedFetches: parkedFetches, parkedProduces: parkedProduces}
	for _, id := range n.replicas {
		if id == n.cfg.ID {
			continue
		}
		caughtUp := int64(0)
		if slices.Contains(n.isr, id) {
			caughtUp = n.now
		}
		n.lead.followers[id] = &followerProgress{leo: -1, lastFetchMs: n.now, lastCaughtUpMs: caughtUp, leaderLEOAtLastFetch: leo, sentHW: -1}
	}
	n.emit(Event{Kind: EventBecameLeader, New: int64(s.LeaderEpoch)})
	if err := n.rebuildProducers(); err != nil {
		return err
	}
	n.maybeAdvanceHW()
	return nil
}

// updatePartition applies a newer partition epoch within the same leadership.
func (n *Node) updatePartition(s LeaderAndISR) {
	if s.PartitionEpoch <= n.partitionEpoch {
		return
	}
	n.partitionEpoch, n.replicas = s.PartitionEpoch, slices.Clone(s.Replicas)
	n.commitISR(s.ISR)
}

// endLeadership answers everything a leader parked with code, as Kafka does
// when leadership moves.
func (n *Node) endLeadership(code ErrorCode) {
	for _, p := range n.lead.parkedFetches {
		n.send(Message{Type: MsgFetchResponse, To: p.req.From, CorrelationID: p.req.CorrelationID,
			Error: code, CurrentLeaderEpoch: n.leaderEpoch, FetchOffset: p.req.FetchOffset})
	}
	for _, p := range n.lead.parkedProduces {
		p.resp.Error = code
		n.out.ProduceResponses = append(n.out.ProduceResponses, p.resp)
	}
	n.lead = leaderState{}
}

func (n *Node) tickLeader() {
	n.expireParkedFetches()
	n.expireParkedProduces()
	n.alignShrinkCheck()
	if n.now-n.lead.lastShrinkCheckMs >= n.cfg.ReplicaLagTimeMaxMs/2 {
		n.lead.lastShrinkCheckMs = n.now
		n.maybeShrinkISR()
	}
	if n.lead.pendingISR != nil && n.now-n.lead.pendingSentMs >= n.cfg.ReplicaSocketTimeoutMs {
		n.sendAlterPartition()
	}
}

// SetMinInsyncReplicas changes the partition's min.insync.replicas, as a
// topic config altered while the broker runs (Kafka reads it from the
// log's config at each check): the next acks=all produce is checked
// against it, and a leader's high watermark, which under StrictMinISR it
// holds, is checked again at once (parked acks=all produces it passes are
// answered in the next Ready).
func (n *Node) SetMinInsyncReplicas(v int) error {
	if v < 1 {
		return fmt.Errorf("%w: MinInsyncReplicas %d < 1", ErrInvalidConfig, v)
	}
	n.cfg.MinInsyncReplicas = v
	n.maybeAdvanceHW()
	return nil
}

// effectiveMinISR is the min ISR that acks=all and the HW are held to:
// min(min.insync.replicas, replication factor) from 3.7
// (Partition.effectiveMinIsr), min.insync.replicas as set before.
func (n *Node) effectiveMinISR() int {
	if !n.cfg.Rules.EffectiveMinISRCapped() {
		return n.cfg.MinInsyncReplicas
	}
	return min(n.cfg.MinInsyncReplicas, max(len(n.replicas), 1))
}

// checkFencing applies KIP-320's epoch check (V2_1+) to a request's epoch
// (Partition.localLogWithEpochOrThrow).
func (n *Node) checkFencing(m Message) ErrorCode {
	switch {
	case n.role != RoleLeader:
		return NotLeaderOrFollower
	case !n.cfg.Rules.Fencing() || m.CurrentLeaderEpoch == NoEpoch:
		return None
	case m.CurrentLeaderEpoch < n.leaderEpoch:
		return FencedLeaderEpoch
	case m.CurrentLeaderEpoch > n.leaderEpoch:
		return UnknownLeaderEpoch
	}
	return None
}

// handleOffsetsForLeaderEpoch answers with endOffsetFor (LeaderEpochFileCache.endOffsetFor), or
// with the end offset only under V0_11 (OffsetsForLeaderEpoch v0).
func (n *Node) handleOffsetsForLeaderEpoch(m Message) {
	resp := Message{Type: MsgOffsetsForLeaderEpochResponse, To: m.From, CorrelationID: m.CorrelationID,
		CurrentLeaderEpoch: n.leaderEpoch, Epoch: NoEpoch, EndOffset: UndefinedOffset}
	if resp.Error = n.checkFencing(m); resp.Error != None {
		n.send(resp)
		return
	}
	resp.Epoch, resp.EndOffset = n.EndOffsetForEpoch(m.Epoch)
	n.send(resp)
}

// EndOffsetForEpoch is what this replica's log answers to
// OffsetsForLeaderEpoch for epoch, under the node's rules
// (LeaderEpochFileCache.endOffsetFor): the largest cached epoch at most
// epoch and the offset where the next epoch starts (the log end offset for
// the latest), or NoEpoch and UndefinedOffset when that is undefined. Under
// V0_11 the epoch is NoEpoch (OffsetsForLeaderEpoch v0 carries none). It
// checks neither the role nor the caller's leader epoch: the leader's
// handler does, and so does a broker answering a client's request
// (Partition.lastOffsetForLeaderEpoch).
func (n *Node) EndOffsetForEpoch(epoch int32) (int32, int64) {
	e, end, ok := endOffsetFor(n.log.Epochs(), n.log.LogEndOffset(), epoch, n.cfg.Rules.endOffsetBefore21())
	switch {
	case !ok:
		return NoEpoch, UndefinedOffset
	case n.cfg.Rules < V2_0:
		return NoEpoch, end
	}
	return e, end
}
