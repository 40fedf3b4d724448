package group

// RangeAssignor is Kafka's RangeAssignor ("range"), eager. Per topic it sorts
// the subscribed members (static ones by group.instance.id first) and gives
// member i the partitions from i·q + min(i, r), q + (i < r ? 1 : 0) of them,
// with q = partitions / members and r = partitions % members. Topics are
// independent, so the first members collect the extra partition of every
// topic: balanced within one per topic, not across topics.
type RangeAssignor struct{}

// Name returns "range".
func (RangeAssignor) Name() string { return "range" }

// Protocol returns [Eager].
func (RangeAssignor) Protocol() RebalanceProtocol { return Eager }

// Assign implements [Assignor].
func (RangeAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	ms := normalizedMembers(members)
	counts := partitionCounts(topics)
	out := emptyAssignment(ms)
	for _, topic := range subscribedTopics(ms, counts) {
		var subs []string
		for _, m := range ms {
			if containsString(m.Topics, topic) {
				subs = append(subs, m.MemberID)
			}
		}
		n := int32(len(subs))
		q, r := counts[topic]/n, counts[topic]%n
		for i, id := range subs {
			i := int32(i)
			start := i*q + min(i, r)
			count := q
			if i < r {
				count++
			}
			for p := start; p < start+count; p++ {
				out[id] = append(out[id], TopicPartition{Topic: topic, Partition: p})
			}
		}
	}
	return sortAssignment(out)
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
