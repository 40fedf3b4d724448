package group

// CooperativeStickyAssignor is Kafka's CooperativeStickyAssignor
// ("cooperative-sticky", KIP-429, 2.4+; checked at 3.7.0). It computes the
// sticky target (as [StickyAssignor], owned partitions counted in partition
// order), then withholds, as CooperativeStickyAssignor.adjustAssignment
// does, only the partitions that change owner: a partition given to a member
// while another member must first revoke it. That owner revokes it and
// rejoins, and the partition reaches its new owner in the next rebalance,
// so a partition never has two owners at once.
//
// Which partitions change owner is Kafka's partitionsTransferringOwnership.
// With identical subscriptions (ConstrainedAssignmentBuilder): a partition
// dealt to a member after its accepted previous owner released it beyond its
// quota, or one that two members of the same generation both claimed. A
// partition a member still claims from an older generation, which a newer
// generation's owner keeps, is not withheld: that stale claimant no longer
// owns it. With different subscriptions
// (computePartitionsTransferringOwnership): a partition a member is given
// without listing it as owned, that some member listed as owned and is not
// given.
//
// Kafka's members list their owned partitions in SubscriptionState's order,
// which comes out of a HashMap; the project counts them in partition order.
type CooperativeStickyAssignor struct{}

// Name returns "cooperative-sticky".
func (CooperativeStickyAssignor) Name() string { return "cooperative-sticky" }

// Protocol returns [Cooperative].
func (CooperativeStickyAssignor) Protocol() RebalanceProtocol { return Cooperative }

// Assign implements [Assignor].
func (CooperativeStickyAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	target, transferring := stickyAssign(members, topics, false)
	out := make(Assignment, len(target))
	for id, tps := range target {
		out[id] = []TopicPartition{}
		for _, tp := range tps {
			if owner, ok := transferring[tp]; !ok || owner != id {
				out[id] = append(out[id], tp)
			}
		}
	}
	return out
}
