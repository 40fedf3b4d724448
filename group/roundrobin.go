package group

// RoundRobinAssignor is Kafka's RoundRobinAssignor ("roundrobin"), eager. It
// lists every partition of every subscribed topic sorted by topic then
// partition, and walks the sorted members in a circle, giving each partition
// to the next member subscribed to its topic. With identical subscriptions
// every member ends within one partition of every other.
type RoundRobinAssignor struct{}

// Name returns "roundrobin".
func (RoundRobinAssignor) Name() string { return "roundrobin" }

// Protocol returns [Eager].
func (RoundRobinAssignor) Protocol() RebalanceProtocol { return Eager }

// Assign implements [Assignor].
func (RoundRobinAssignor) Assign(members []MemberSubscription, topics []TopicMetadata) Assignment {
	ms := normalizedMembers(members)
	counts := partitionCounts(topics)
	out := emptyAssignment(ms)
	next := 0
	for _, tp := range allPartitions(subscribedTopics(ms, counts), counts) {
		// Some member subscribes to tp.Topic, so this finds one within a lap.
		for range ms {
			if containsString(ms[next].Topics, tp.Topic) {
				break
			}
			next = (next + 1) % len(ms)
		}
		out[ms[next].MemberID] = append(out[ms[next].MemberID], tp)
		next = (next + 1) % len(ms)
	}
	return sortAssignment(out)
}
