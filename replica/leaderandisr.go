package replica

import (
	"fmt"
	"slices"
)

// LeaderAndISR is the controller's decision for the partition, as a
// LeaderAndIsr request (ZooKeeper era) or a partition record (KRaft) carries
// it to each replica.
type LeaderAndISR struct {
	// Leader is the leader's broker id, or [NoLeader].
	Leader int32
	// LeaderEpoch goes up by one on every change of Leader, and on
	// controller-initiated ISR shrinks before KRaft 3.6.
	LeaderEpoch int32
	// PartitionEpoch goes up by one on every change of the partition.
	PartitionEpoch int32
	// ISR is the committed in-sync replica set.
	ISR []int32
	// Replicas is the assignment, in preference order.
	Replicas []int32
	// ELR and LastKnownELR are the partition record's Eligible Leader
	// Replicas and LastKnownElr (KIP-966, Kafka 4.x): replicas outside the
	// ISR that may still lead, and the last leader of a partition left
	// without one. A Node does not use them; a broker's metadata answers
	// (DescribeTopicPartitions) carry them.
	ELR, LastKnownELR []int32
}

// validate checks that the decision is self-consistent.
func (s LeaderAndISR) validate() error {
	if s.LeaderEpoch < 0 || s.PartitionEpoch < 0 {
		return fmt.Errorf("%w: negative epoch (leader %d, partition %d)", ErrInvalidLeaderAndISR, s.LeaderEpoch, s.PartitionEpoch)
	}
	for _, id := range s.ISR {
		if !slices.Contains(s.Replicas, id) {
			return fmt.Errorf("%w: ISR member %d is not a replica %v", ErrInvalidLeaderAndISR, id, s.Replicas)
		}
	}
	if s.Leader != NoLeader && !slices.Contains(s.ISR, s.Leader) {
		return fmt.Errorf("%w: leader %d is not in the ISR %v", ErrInvalidLeaderAndISR, s.Leader, s.ISR)
	}
	return nil
}

// sortedIDs returns a sorted copy of ids without duplicates.
func sortedIDs(ids []int32) []int32 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// BecomeLeader applies a LeaderAndIsr that names this replica the leader.
// A newer leader epoch starts a new leadership: the leader epoch start offset
// (LESO) is the LEO, the epoch is cached at once under V2_1+ (KAFKA-7415), and
// what the node knew of its followers is forgotten (Partition.makeLeader). The same
// epoch with a newer partition epoch only updates the ISR and replicas (a
// controller-side ISR change). An older epoch is refused with
// [ErrStaleLeaderEpoch].
func (n *Node) BecomeLeader(s LeaderAndISR) error {
	if err := s.validate(); err != nil {
		return err
	}
	if s.Leader != n.cfg.ID {
		return fmt.Errorf("%w: BecomeLeader on broker %d names leader %d", ErrInvalidLeaderAndISR, n.cfg.ID, s.Leader)
	}
	switch {
	case s.LeaderEpoch < n.leaderEpoch:
		return fmt.Errorf("%w: broker %d: epoch %d < %d", ErrStaleLeaderEpoch, n.cfg.ID, s.LeaderEpoch, n.leaderEpoch)
	case s.LeaderEpoch == n.leaderEpoch && n.role == RoleLeader:
		n.updatePartition(s)
		return nil
	case s.LeaderEpoch == n.leaderEpoch:
		return fmt.Errorf("%w: broker %d: epoch %d already used by leader %d", ErrStaleLeaderEpoch, n.cfg.ID, s.LeaderEpoch, n.leaderID)
	}
	return n.becomeLeader(s)
}

// BecomeFollower applies a LeaderAndIsr that names another replica (or
// nobody) the leader. A newer leader epoch starts following: the replica
// finds its truncation point with its rule set's method ([TruncationPoint]) and then
// fetches. Before 2.1 that happens only when the leader's identity changes
// (KAFKA-7164, Partition.makeFollower); a newer epoch with the same leader just updates
// the epoch. The same epoch and leader again is a no-op apart from the ISR;
// an older epoch is refused with [ErrStaleLeaderEpoch].
func (n *Node) BecomeFollower(s LeaderAndISR) error {
	if err := s.validate(); err != nil {
		return err
	}
	if s.Leader == n.cfg.ID {
		return fmt.Errorf("%w: BecomeFollower on broker %d names it leader", ErrInvalidLeaderAndISR, n.cfg.ID)
	}
	switch {
	case s.LeaderEpoch < n.leaderEpoch:
		return fmt.Errorf("%w: broker %d: epoch %d < %d", ErrStaleLeaderEpoch, n.cfg.ID, s.LeaderEpoch, n.leaderEpoch)
	case s.LeaderEpoch == n.leaderEpoch && n.role == RoleFollower && s.Leader == n.leaderID:
		n.replicas, n.isr, n.partitionEpoch = slices.Clone(s.Replicas), sortedIDs(s.ISR), s.PartitionEpoch
		return nil
	case n.role == RoleFollower && s.Leader == n.leaderID && !n.cfg.Rules.Fencing():
		// Before 2.1 (KAFKA-7164) only a new leader identity restarted the
		// follower; a bumped epoch with the same leader was bookkeeping.
		n.setPartition(s)
		return nil
	case s.LeaderEpoch == n.leaderEpoch:
		return fmt.Errorf("%w: broker %d: epoch %d already used by leader %d", ErrStaleLeaderEpoch, n.cfg.ID, s.LeaderEpoch, n.leaderID)
	}
	return n.becomeFollower(s)
}

// setPartition copies the controller's decision into the node.
func (n *Node) setPartition(s LeaderAndISR) {
	n.leaderID, n.leaderEpoch, n.partitionEpoch = s.Leader, s.LeaderEpoch, s.PartitionEpoch
	n.replicas, n.isr = slices.Clone(s.Replicas), sortedIDs(s.ISR)
}
