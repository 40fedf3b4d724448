package group

// CooperativeStickyAssignor is Kafka's CooperativeStickyAssignor
// ("cooperative-sticky", KIP-429, 2.4+). It computes the [StickyAssignor]
// target, then withholds every partition that another member still lists as
// owned: that owner must first revoke it and rejoin, and the partition
// reaches its new owner in the next rebalance. So a partition is never handed
// to a new owner in the same generation in which another member owns it.
type CooperativeStickyAssignor struct{}

// Name returns "cooperative-sticky".
func (CooperativeStickyAssignor) Name() string { return "cooperative-sticky" }

// Protocol returns [Cooperative].
func (CooperativeStickyAssignor) Protocol() RebalanceProtocol { return Cooperative }

// Assign implements [Assignor].
func (CooperativeStickyAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	target, _ := stickyAssign(members, topics)
	claimedBy := map[TopicPartition][]string{}
	for _, m := range normalizedMembers(members) {
		for _, tp := range m.OwnedPartitions {
			claimedBy[tp] = append(claimedBy[tp], m.MemberID)
		}
	}
	out := make(Assignment, len(target))
	for id, tps := range target {
		out[id] = []TopicPartition{}
		for _, tp := range tps {
			if !claimedByOther(claimedBy[tp], id) {
				out[id] = append(out[id], tp)
			}
		}
	}
	return out
}

func claimedByOther(claimants []string, id string) bool {
	for _, c := range claimants {
		if c != id {
			return true
		}
	}
	return false
}
