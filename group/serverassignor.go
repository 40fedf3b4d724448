package group

import (
	"errors"
	"slices"
)

// ServerAssignor computes a consumer-protocol group's target assignment
// on the coordinator (KIP-848's ConsumerGroupPartitionAssignor): the
// members send their subscriptions, never an assignment. It is pure: the
// same [GroupSpec] gives the same answer.
type ServerAssignor interface {
	// Name is what members ask for in group.remote.assignor and the broker
	// lists in group.consumer.assignors.
	Name() string
	// Assign returns every member's partitions (an entry for each member,
	// sorted), or [ErrAssignment] when the spec cannot be assigned.
	Assign(spec GroupSpec) (Assignment, error)
}

// ErrAssignment is an assignor that cannot assign the group
// (PartitionAssignorException): the heartbeat that asked for it is
// answered UNKNOWN_SERVER_ERROR.
var ErrAssignment = errors.New("group: partition assignment failed")

// GroupSpec is what a server-side assignor sees of a group (GroupSpecImpl
// with its SubscribedTopicDescriber).
type GroupSpec struct {
	// Members are the group's members in the order Kafka's GroupSpecImpl
	// iterates them (a java.util.HashMap keyed by member id).
	Members []SpecMember
	// Homogeneous is set when every member subscribes to every subscribed
	// topic (SubscriptionType.HOMOGENEOUS).
	Homogeneous bool
	// Topics are the subscribed topics that exist (the group's subscription
	// metadata), sorted by name.
	Topics []TopicMetadata
}

// SpecMember is one member as an assignor sees it (MemberSubscription and
// MemberAssignment).
type SpecMember struct {
	// MemberID and InstanceID (group.instance.id, "" if dynamic) name it;
	// RackID is its client.rack, "" if not set.
	MemberID, InstanceID, RackID string
	// Topics are its subscribed topics, sorted.
	Topics []string
	// Assignment is its target assignment so far, sorted.
	Assignment []TopicPartition
}

// ServerAssignors returns the server-side assignors by name: Kafka 4's
// group.consumer.assignors (uniform, range).
func ServerAssignors() map[string]ServerAssignor {
	return map[string]ServerAssignor{
		UniformAssignor{}.Name():     UniformAssignor{},
		ServerRangeAssignor{}.Name(): ServerRangeAssignor{},
	}
}

// specTopics indexes the spec's topics by name.
func specTopics(spec GroupSpec) map[string]TopicMetadata {
	out := make(map[string]TopicMetadata, len(spec.Topics))
	for _, t := range spec.Topics {
		out[t.Topic] = t
	}
	return out
}

// subscribedIDsOrder returns m's subscribed topics that exist, in the
// iteration order of a java.util.HashSet of their topic ids filled from
// the member's HashSet of names (TopicIds over
// ConsumerGroupMember.subscribedTopicNames).
func subscribedIDsOrder(m SpecMember, topics map[string]TopicMetadata) []TopicMetadata {
	names := javaHashOrder(m.Topics, javaStringHash)
	var out []TopicMetadata
	for _, n := range names {
		if t, ok := topics[n]; ok {
			out = append(out, t)
		}
	}
	return javaHashOrder(out, func(t TopicMetadata) int32 { return uuidHash(t.ID) })
}

// assignmentByTopic groups a member's partitions by topic, the topics in
// the iteration order of its Map<Uuid, Set<Integer>> (a HashMap by topic
// id), each topic's partitions ascending.
func assignmentByTopic(tps []TopicPartition, topics map[string]TopicMetadata) []topicPartitions {
	by := map[string][]int32{}
	var names []string
	for _, tp := range SortedPartitions(tps) {
		if _, ok := by[tp.Topic]; !ok {
			names = append(names, tp.Topic)
		}
		by[tp.Topic] = append(by[tp.Topic], tp.Partition)
	}
	ordered := javaHashOrder(names, func(n string) int32 { return uuidHash(topics[n].ID) })
	out := make([]topicPartitions, len(ordered))
	for i, n := range ordered {
		out[i] = topicPartitions{topic: n, partitions: by[n]}
	}
	return out
}

// topicPartitions is one topic's partitions of an assignment.
type topicPartitions struct {
	topic      string
	partitions []int32
}

// sortedAssignment returns a with every member's partitions sorted and
// an entry for each member of spec.
func sortedAssignment(spec GroupSpec, a Assignment) Assignment {
	out := make(Assignment, len(spec.Members))
	for _, m := range spec.Members {
		out[m.MemberID] = SortedPartitions(a[m.MemberID])
	}
	return out
}

// isHomogeneous is ModernGroup.subscriptionType: every subscribed topic
// name (existing or not) has every member as a subscriber.
func isHomogeneous(members []SpecMember) bool {
	count := map[string]int{}
	for _, m := range members {
		for _, t := range slices.Compact(slices.Sorted(slices.Values(m.Topics))) {
			count[t]++
		}
	}
	for _, n := range count {
		if n != len(members) {
			return false
		}
	}
	return true
}
