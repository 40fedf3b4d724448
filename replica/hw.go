package replica

// hwISR is the ISR the leader counts for the HW and acks=all: the maximal
// ISR, committed ∪ proposed (KIP-497).
func (n *Node) hwISR() []int32 {
	if n.lead.pendingISR != nil {
		return sortedIDs(append(append([]int32(nil), n.isr...), n.lead.pendingISR...))
	}
	return n.isr
}

// hwCandidate is Partition.maybeIncrementLeaderHW's candidate: the minimum of the leader's LEO and the
// LEOs of the other members of [Node.hwISR] (-1 for one that has not fetched
// in this leadership, which holds the HW where it is).
func (n *Node) hwCandidate() int64 {
	candidate := n.log.LogEndOffset()
	for _, id := range n.hwISR() {
		if id == n.cfg.ID {
			continue
		}
		leo := int64(-1)
		if f := n.lead.followers[id]; f != nil {
			leo = f.leo
		}
		candidate = min(candidate, leo)
	}
	return candidate
}

// maybeAdvanceHW is Partition.maybeIncrementLeaderHW: the leader's HW only moves forward, and
// under StrictMinISR not at all while the committed ISR is below the
// effective min ISR. Parked acks=all produces the HW passes are answered.
func (n *Node) maybeAdvanceHW() {
	if n.role != RoleLeader {
		return
	}
	if n.cfg.Rules.StrictMinISR() && len(n.isr) < n.effectiveMinISR() {
		return
	}
	if c := n.hwCandidate(); c > n.hw {
		n.setHW(c)
		n.completeParkedProduces()
	}
}
