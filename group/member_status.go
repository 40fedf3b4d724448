package group

import "fmt"

// ConsumerStatus is a plain snapshot of a [Member], for printing and JSON.
type ConsumerStatus struct {
	// MemberID is the coordinator-given id, "" before the first join.
	MemberID string
	// GroupInstanceID is set for a static member.
	GroupInstanceID string
	// Generation is the generation of the current assignment, -1 if none.
	Generation int32
	// State is where the member is in the protocol.
	State MemberState
	// Protocol is eager or cooperative.
	Protocol RebalanceProtocol
	// Owned and Fetchable are sorted; see [Member.Owned] and [Member.Fetchable].
	Owned, Fetchable []TopicPartition
	// Idle says why the member fetches nothing ("" when it fetches something):
	// the "no partitions" reason of the group's text view.
	Idle string
	// GroupProtocol is the group protocol the member speaks: "classic"
	// (JoinGroup and SyncGroup) or "consumer" (KIP-848's heartbeats).
	GroupProtocol string
	// Pending are the partitions of a consumer-protocol member's target
	// assignment it does not own yet; Revoking those it is giving up.
	Pending, Revoking []TopicPartition
}

// Status returns the member's snapshot.
func (m *Member) Status() ConsumerStatus {
	s := ConsumerStatus{
		MemberID: m.memberID, GroupInstanceID: m.cfg.GroupInstanceID, Generation: m.generation,
		State: m.state, Protocol: m.protocol, Owned: m.Owned(), Fetchable: m.Fetchable(), GroupProtocol: "classic",
		Pending: []TopicPartition{}, Revoking: SortedPartitions(m.revoking),
	}
	if len(s.Fetchable) == 0 {
		s.Idle = m.idleReason()
	}
	return s
}

func (m *Member) idleReason() string {
	switch m.state {
	case Left:
		return "left the group"
	case Revoking:
		return "revoking: committing before giving its partitions up"
	case Syncing:
		return "waiting for its assignment (SyncGroup)"
	case Unjoined, Joining:
		if m.generation < 0 {
			return "joining the group"
		}
		if m.protocol == Eager {
			return "rebalancing: gave up every partition (eager) until the new assignment"
		}
		return "rebalancing: rejoining"
	}
	if m.protocol == Cooperative {
		return fmt.Sprintf("assigned nothing in generation %d (cooperative: a moved partition arrives in the next rebalance, once its owner revoked it)", m.generation)
	}
	return fmt.Sprintf("assigned nothing in generation %d (more members than partitions?)", m.generation)
}
