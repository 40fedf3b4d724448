package group

import "fmt"

// UniformAssignor is Kafka 4's default server-side assignor, "uniform"
// (group-coordinator's UniformAssignor, read in the trunk of late 2024
// that became 4.0): balance first (member sizes differ by one at most),
// then stickiness (a member keeps what it had as far as balance allows).
// When every member subscribes to the same topics it deals by quota
// (UniformHomogeneousAssignmentBuilder); otherwise it assigns topic by
// topic to the least loaded subscribers and then moves partitions from the
// most loaded ones until each topic's subscribers are balanced
// (UniformHeterogeneousAssignmentBuilder). Rack-aware assignment is not
// modelled.
type UniformAssignor struct{}

// Name implements [ServerAssignor]: "uniform".
func (UniformAssignor) Name() string { return "uniform" }

// Assign implements [ServerAssignor].
func (UniformAssignor) Assign(spec GroupSpec) (Assignment, error) {
	if len(spec.Members) == 0 {
		return Assignment{}, nil
	}
	if spec.Homogeneous {
		return uniformHomogeneous(spec)
	}
	return newHeterogeneous(spec).build(), nil
}

// uniformHomogeneous is UniformHomogeneousAssignmentBuilder.build: the
// partitions nobody has are dealt, with those taken from members over
// their quota, to the members under it, in member order. The first
// total%members members (in member order) get one partition more.
func uniformHomogeneous(spec GroupSpec) (Assignment, error) {
	topics := specTopics(spec)
	subscribed := subscribedIDsOrder(spec.Members[0], topics)
	out := make(Assignment, len(spec.Members))
	if len(subscribed) == 0 {
		return sortedAssignment(spec, out), nil
	}
	isSubscribed := map[string]bool{}
	taken := map[TopicPartition]bool{}
	for _, m := range spec.Members {
		for _, tp := range m.Assignment {
			taken[tp] = true
		}
	}
	var unassigned []TopicPartition
	total := 0
	for _, t := range subscribed {
		isSubscribed[t.Topic] = true
		for p := range t.Partitions {
			if tp := (TopicPartition{t.Topic, p}); !taken[tp] {
				unassigned = append(unassigned, tp)
			}
		}
		total += int(t.Partitions)
	}
	minQuota, extra := total/len(spec.Members), total%len(spec.Members)
	type unfilled struct {
		member string
		quota  int
	}
	var short []unfilled
	for _, m := range spec.Members {
		quota := minQuota
		if extra > 0 {
			quota++
			extra--
		}
		var kept []TopicPartition
		for _, tps := range assignmentByTopic(m.Assignment, topics) {
			if !isSubscribed[tps.topic] {
				continue
			}
			for i, p := range tps.partitions {
				tp := TopicPartition{tps.topic, p}
				if len(tps.partitions) <= quota || i < quota {
					kept = append(kept, tp)
					continue
				}
				unassigned = append(unassigned, tp)
			}
			quota = max(quota-len(tps.partitions), 0)
		}
		out[m.MemberID] = kept
		if quota > 0 {
			short = append(short, unfilled{m.MemberID, quota})
		}
	}
	next := 0
	for _, u := range short {
		for i := 0; i < u.quota && next < len(unassigned); i++ {
			out[u.member] = append(out[u.member], unassigned[next])
			next++
		}
	}
	if next < len(unassigned) {
		return nil, fmt.Errorf("%w: %d partitions were left unassigned", ErrAssignment, len(unassigned)-next)
	}
	return sortedAssignment(spec, out), nil
}
