package group

import (
	"cmp"
	"slices"
)

// ServerRangeAssignor is the server-side "range" assignor of Kafka 4
// (group-coordinator's RangeAssignor, read in the trunk of late 2024 that
// became 4.0): each topic's partitions cut into contiguous ranges, dealt
// to its subscribers in member order (static members first by
// group.instance.id, then dynamic ones by member id); the first
// partitions%subscribers of them get one more. Members subscribed to the
// same topics of equal size get the same partition numbers of each (co-
// partitioning). It is not sticky: a member joining shifts every range.
type ServerRangeAssignor struct{}

// Name implements [ServerAssignor]: "range".
func (ServerRangeAssignor) Name() string { return "range" }

// Assign implements [ServerAssignor].
func (ServerRangeAssignor) Assign(spec GroupSpec) (Assignment, error) {
	out := Assignment{}
	if len(spec.Members) == 0 {
		return out, nil
	}
	topics := specTopics(spec)
	members := slices.Clone(spec.Members)
	slices.SortFunc(members, compareSpecMembers)
	type ranges struct {
		partitions, subscribers, next int
		minQuota, extra               int
	}
	state := map[string]*ranges{}
	for _, m := range members {
		for _, t := range subscribedIDsOrder(m, topics) {
			if state[t.Topic] == nil {
				state[t.Topic] = &ranges{partitions: int(t.Partitions)}
			}
			state[t.Topic].subscribers++
		}
	}
	if spec.Homogeneous {
		// assignHomogeneousGroup counts every member a subscriber of
		// every topic of the first.
		for _, r := range state {
			r.subscribers = len(members)
		}
	}
	for _, r := range state {
		r.minQuota, r.extra = r.partitions/r.subscribers, r.partitions%r.subscribers
	}
	for _, m := range members {
		var tps []TopicPartition
		for _, t := range subscribedIDsOrder(m, topics) {
			r := state[t.Topic]
			quota := r.minQuota
			if r.extra > 0 {
				quota++
				r.extra--
			}
			end := min(r.next+quota, r.partitions)
			for p := r.next; p < end; p++ {
				tps = append(tps, TopicPartition{t.Topic, int32(p)})
			}
			r.next = end
		}
		out[m.MemberID] = tps
	}
	return sortedAssignment(spec, out), nil
}

// compareSpecMembers is RangeAssignor.sortMemberIds: static members first
// by group.instance.id, then dynamic ones by member id.
func compareSpecMembers(a, b SpecMember) int {
	switch {
	case a.InstanceID != "" && b.InstanceID != "":
		return cmp.Compare(a.InstanceID, b.InstanceID)
	case a.InstanceID != "":
		return -1
	case b.InstanceID != "":
		return 1
	}
	return cmp.Compare(a.MemberID, b.MemberID)
}
