package replica

import "slices"

// maybeExpandISR is Partition.maybeExpandIsr: follower id joins when it is a replica outside the
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

// maybeShrinkISR is Partition.maybeShrinkIsr: members that have not reached
// the leader's log end within replica.lag.time.max.ms leave, all in one
// change. From 2.1 (KAFKA-7152, [RuleSet.CaughtUpAtLeaderLEO]) a member
// whose LEO equals the leader's stays however long ago it last caught up;
// in 2.0 Partition.getOutOfSyncReplicas uses the time test alone.
func (n *Node) maybeShrinkISR() {
	if n.lead.pendingISR != nil {
		return
	}
	n.settleHeld()
	leo := n.log.LogEndOffset()
	var keep []int32
	for _, id := range n.isr {
		f := n.lead.followers[id]
		switch {
		case id == n.cfg.ID,
			f != nil && f.leo == leo && n.cfg.Rules.CaughtUpAtLeaderLEO(),
			f != nil && n.now-f.lastCaughtUpMs <= n.cfg.ReplicaLagTimeMaxMs:
			keep = append(keep, id)
		}
	}
	if len(keep) < len(n.isr) {
		n.proposeISR(keep)
	}
}

// proposeISR sends the controller an ISR change (AlterPartition, KIP-497). Until it answers,
// the leader counts the maximal ISR, the union of the committed and the
// proposed sets (KIP-497), so that neither a growing nor a shrinking ISR can
// let the HW pass records a future leader might lack.
//
// Before 2.7 ([RuleSet.SynchronousISRWrite]) the leader wrote ZooKeeper
// itself under the partition lock. A growing ISR then takes effect at once
// (counting the new member early is the safe direction, as the maximal ISR
// does); a shrinking one waits for the write's answer, which a caller that
// answers at once gives before anything else happens.
func (n *Node) proposeISR(isr []int32) {
	isr = sortedIDs(isr)
	if n.cfg.Rules.SynchronousISRWrite() && len(isr) > len(n.isr) {
		n.alterCorr++
		n.out.AlterPartitions = append(n.out.AlterPartitions, AlterPartition{From: n.cfg.ID,
			LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch, ISR: slices.Clone(isr), CorrelationID: n.alterCorr})
		n.partitionEpoch++
		n.commitISR(isr)
		return
	}
	n.lead.pendingISR = isr
	n.emit(Event{Kind: EventISRProposed, ISR: slices.Clone(isr)})
	n.sendAlterPartition()
}

func (n *Node) sendAlterPartition() {
	n.alterCorr++
	n.lead.pendingSentMs, n.lead.pendingCorr = n.now, n.alterCorr
	n.out.AlterPartitions = append(n.out.AlterPartitions, AlterPartition{From: n.cfg.ID,
		LeaderEpoch: n.leaderEpoch, PartitionEpoch: n.partitionEpoch, ISR: slices.Clone(n.lead.pendingISR),
		CorrelationID: n.alterCorr})
}

// handleAlterPartitionResponse commits the controller's answer, or drops the
// proposal it refused (the controller's next LeaderAndIsr will say where
// things stand). Answers from another leadership or to another proposal are
// ignored, as Kafka ignores an answer once the partition state moved on.
func (n *Node) handleAlterPartitionResponse(m Message) {
	if n.role != RoleLeader || m.LeaderEpoch != n.leaderEpoch || n.lead.pendingISR == nil ||
		m.CorrelationID != 0 && m.CorrelationID != n.lead.pendingCorr {
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
	n.releaseHeld(NoLeader, n.now)
	n.lead.pendingISR = nil
	n.isr = sortedIDs(isr)
	n.emit(Event{Kind: EventISRChanged, ISR: slices.Clone(n.isr)})
	n.maybeAdvanceHW()
}
