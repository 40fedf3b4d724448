package group

import (
	"cmp"
	"slices"
)

// RebalanceProtocol is how members give up partitions during a rebalance
// (ConsumerPartitionAssignor.RebalanceProtocol).
type RebalanceProtocol int8

const (
	// Eager: every member revokes every partition before it rejoins, so the
	// group consumes nothing from the rebalance until the new assignment.
	Eager RebalanceProtocol = iota
	// Cooperative (KIP-429, 2.4+): members keep their partitions while they
	// rejoin and revoke only those that move; a moved partition reaches its
	// new owner in a second rebalance.
	Cooperative
)

// String returns "eager" or "cooperative".
func (p RebalanceProtocol) String() string {
	if p == Cooperative {
		return "cooperative"
	}
	return "eager"
}

// Subscription is what a member sends with each assignor it supports in
// JoinGroup (ConsumerProtocolSubscription): the coordinator stores it
// unread and hands every member's to the group leader.
type Subscription struct {
	// Topics the member subscribes to.
	Topics []string
	// OwnedPartitions are the partitions the member owns as it joins
	// (cooperative: still owned; eager sticky: the previous assignment, which
	// Kafka's StickyAssignor carries in its user data).
	OwnedPartitions []TopicPartition
	// Generation is the generation in which OwnedPartitions were assigned, -1
	// when unknown (subscription v2+).
	Generation int32
}

// MemberSubscription is one member's subscription as the leader sees it.
type MemberSubscription struct {
	// MemberID is the coordinator-given member id.
	MemberID string
	// GroupInstanceID is the static member's group.instance.id, "" if dynamic.
	GroupInstanceID string
	Subscription
	// Metadata is the member's protocol metadata bytes as it joined
	// ([Protocol].Metadata), nil for the world's own members.
	Metadata []byte
}

// TopicMetadata is a topic and its partition count.
type TopicMetadata struct {
	// Topic is the topic name.
	Topic string
	// Partitions is the partition count; partitions are 0..Partitions-1.
	Partitions int32
	// ID is the topic id (KIP-516), zero when not known. The classic
	// assignors do not read it; the server-side ones order topics by it as
	// Kafka's do.
	ID [16]byte
}

// Assignment maps member id to its partitions. Every member given to Assign
// has an entry, possibly empty. Range and round-robin list each member's
// partitions sorted. The eager sticky assignor lists them in Kafka's order,
// which matters to the next rebalance: what the member keeps, in the order
// it listed them as owned, then what it is newly given, in the order dealt
// (AbstractStickyAssignor's ConstrainedAssignmentBuilder appends them so);
// the member sends that list back, in that order, as its previous
// assignment. Compare with [SortedPartitions] where the order does not
// matter.
type Assignment map[string][]TopicPartition

// Assignor computes a group's assignment on the group leader
// (ConsumerPartitionAssignor). Implementations are pure: they sort their
// inputs, ignore duplicates and unknown topics, never panic, and return the
// same output for the same input in any order.
type Assignor interface {
	// Name is the name members list in partition.assignment.strategy.
	Name() string
	// Protocol is the rebalance protocol the assignor supports.
	Protocol() RebalanceProtocol
	// Assign returns the assignment of topics' partitions to members.
	Assign(members []MemberSubscription, topics []TopicMetadata) Assignment
}

// compareMembers is Kafka's MemberInfo order: static members first, by
// group.instance.id; then dynamic ones by member id.
func compareMembers(a, b MemberSubscription) int {
	switch {
	case a.GroupInstanceID != "" && b.GroupInstanceID != "":
		if c := cmp.Compare(a.GroupInstanceID, b.GroupInstanceID); c != 0 {
			return c
		}
	case a.GroupInstanceID != "":
		return -1
	case b.GroupInstanceID != "":
		return 1
	}
	return cmp.Compare(a.MemberID, b.MemberID)
}

// normalizedMembers returns the members sorted by [compareMembers], the first
// of each member id kept, with sorted distinct topics and distinct owned
// partitions in the order listed.
func normalizedMembers(members []MemberSubscription) []MemberSubscription {
	seen := make(map[string]bool, len(members))
	out := make([]MemberSubscription, 0, len(members))
	for _, m := range members {
		if seen[m.MemberID] {
			continue
		}
		seen[m.MemberID] = true
		topics := slices.Clone(m.Topics)
		slices.Sort(topics)
		m.Topics = slices.Compact(topics)
		m.OwnedPartitions = distinctPartitions(m.OwnedPartitions)
		out = append(out, m)
	}
	slices.SortStableFunc(out, compareMembers)
	return out
}

// partitionCounts returns topic → partition count for topics with at least
// one partition; a repeated topic keeps its first count.
func partitionCounts(topics []TopicMetadata) map[string]int32 {
	out := make(map[string]int32, len(topics))
	for _, t := range topics {
		if _, ok := out[t.Topic]; !ok && t.Partitions > 0 {
			out[t.Topic] = t.Partitions
		}
	}
	return out
}

// emptyAssignment has an empty entry for every member.
func emptyAssignment(members []MemberSubscription) Assignment {
	out := make(Assignment, len(members))
	for _, m := range members {
		out[m.MemberID] = []TopicPartition{}
	}
	return out
}

// sortAssignment sorts every member's partitions.
func sortAssignment(a Assignment) Assignment {
	for id, tps := range a {
		a[id] = SortedPartitions(tps)
	}
	return a
}

// subscribedTopics returns the sorted topics some member subscribes to and
// that exist in counts.
func subscribedTopics(members []MemberSubscription, counts map[string]int32) []string {
	var out []string
	for _, m := range members {
		for _, t := range m.Topics {
			if counts[t] > 0 {
				out = append(out, t)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// allPartitions lists every partition of topics, sorted.
func allPartitions(topics []string, counts map[string]int32) []TopicPartition {
	var out []TopicPartition
	for _, t := range topics {
		for p := range counts[t] {
			out = append(out, TopicPartition{Topic: t, Partition: p})
		}
	}
	return out
}

// Assignors lists the built-in assignors by name.
func Assignors() map[string]Assignor {
	out := map[string]Assignor{}
	for _, a := range []Assignor{RangeAssignor{}, RoundRobinAssignor{}, StickyAssignor{}, CooperativeStickyAssignor{}} {
		out[a.Name()] = a
	}
	return out
}

// distinctPartitions returns tps without repeats, in their first order,
// never nil.
func distinctPartitions(tps []TopicPartition) []TopicPartition {
	seen := make(map[TopicPartition]bool, len(tps))
	out := make([]TopicPartition, 0, len(tps))
	for _, tp := range tps {
		if !seen[tp] {
			seen[tp] = true
			out = append(out, tp)
		}
	}
	return out
}
