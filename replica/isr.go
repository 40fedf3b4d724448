package replica

import "slices"

// maybeExpandISR is R4.3: follower id joins when it is a replica outside the
// ISR, no change is in flight, it reached the HW and (V2_1+) the leader epoch
// start offset, and it has fetched in this leadership.
func (n *Node) maybeExpandISR(id int32) {
	f := n.lead.followers[id]
	switch {
	case n.lead.pendingISR != nil, f == nil, f.leo < 0,
		!slices.Contains(n.replicas, id), slices.Contains(n.isr, id),
		f.leo < n.hw,
		n.cfg.Rules.ISRJoinNeedsLESO() && f.leo < n.lead.leso:
		return
	}
	n.proposeISR(append(slices.Clone(n.isr), id))
}

// maybeShrinkISR is R4.1: members that have not reached the leader's log
// end within replica.lag.time.max.ms leave, all in one change.
func (n *Node) maybeShrinkISR() {
	if n.lead.pendingISR != nil {
		return
	}
	leo := n.log.LogEndOffset()
	var keep []int32
	for _, id := range n.isr {
		f := n.lead.followers[id]
		if id == n.cfg.ID || f != nil && (f.leo == leo || n.now-f.lastCaughtUpMs <= n.cfg.ReplicaLagTimeMaxMs) {
			keep = append(keep, id)
		}
	}
	if len(keep) < len(n.isr) {
		n.proposeISR(keep)
	}
}

// proposeISR sends the controller an ISR change (R4.4). Under KIP-497
// rules (AlterPartition, 2.7+) the change is in flight until the controller
// answers, and the leader counts the union of both sets meanwhile. Before
// 2.7 the leader wrote the new ISR to ZooKeeper itself, synchronously and
// under the partition lock, so the change takes effect at once; the
// AlterPartition then only tells the controller (a conditional write
// against the old partition epoch) and its answer is ignored.
func (n *Node) proposeISR(isr []int32) {
	isr = sortedIDs(isr)
	if !n.cfg.Rules.MaximalISR() {
		n.out.AlterPartitions = append(n.out.AlterPartitions, AlterPartition{From: n.cfg.ID,
			LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch, ISR: slices.Clone(isr)})
		n.partitionEpoch++
		n.commitISR(isr)
		return
	}
	n.lead.pendingISR = isr
	n.emit(Event{Kind: EventISRProposed, ISR: slices.Clone(isr)})
	n.sendAlterPartition()
}

func (n *Node) sendAlterPartition() {
	n.lead.pendingSentMs = n.now
	n.out.AlterPartitions = append(n.out.AlterPartitions, AlterPartition{From: n.cfg.ID,
		LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch, ISR: slices.Clone(n.lead.pendingISR)})
}

// handleAlterPartitionResponse commits the controller's answer, or drops the
// proposal it refused. Answers from another leadership are ignored.
func (n *Node) handleAlterPartitionResponse(m Message) {
	if n.role != RoleLeader || m.LeaderEpoch != n.leaderEpoch || n.lead.pendingISR == nil {
		return
	}
	if m.Error != None {
		n.emit(Event{Kind: EventISRRejected, ISR: n.lead.pendingISR})
		n.lead.pendingISR = nil
		return
	}
	if m.PartitionEpoch <= n.partitionEpoch {
		return
	}
	n.partitionEpoch = m.PartitionEpoch
	n.commitISR(m.ISR)
}

// commitISR installs a committed ISR and lets the HW follow it.
func (n *Node) commitISR(isr []int32) {
	n.lead.pendingISR = nil
	n.isr = sortedIDs(isr)
	n.emit(Event{Kind: EventISRChanged, ISR: slices.Clone(n.isr)})
	n.maybeAdvanceHW()
}
