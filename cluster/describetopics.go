package cluster

import (
	"fmt"
	"strings"
)

// describeTopicID is the TopicId column: a State carries no topic ids
// ([Topic.ID] has them; the live terminal prints those), so it prints the
// all-zero UUID's base64 form, as Kafka does for a topic without one, and
// the scenarios' expected outputs stay as they are.
const describeTopicID = "AAAAAAAAAAAAAAAAAAAAAA"

// DescribeTopics prints what kafka-topics --bootstrap-server ...
// --describe [--topic name] prints for the partitions in state s (name ""
// means every topic), in Kafka 3.x's layout: a tab-separated topic line,
// then one indented line per partition with its leader ("none" when
// offline), replicas and ISR. Configs lists nothing: the state does not
// carry topic configs. __consumer_offsets is not in the state's
// partitions, so it is not described.
func DescribeTopics(s State, name string) string {
	var b strings.Builder
	byTopic := map[string][]PartitionInfo{}
	var order []string
	for _, p := range s.Partitions {
		if name != "" && p.Topic != name {
			continue
		}
		if _, ok := byTopic[p.Topic]; !ok {
			order = append(order, p.Topic)
		}
		byTopic[p.Topic] = append(byTopic[p.Topic], p)
	}
	if name != "" && len(order) == 0 {
		return fmt.Sprintf("Error while executing topic command : Topic '%s' does not exist as expected\n", name)
	}
	for _, t := range order {
		parts := byTopic[t]
		fmt.Fprintf(&b, "Topic: %s\tTopicId: %s\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: \n", t, describeTopicID, len(parts), len(parts[0].Replicas))
		for _, p := range parts {
			fmt.Fprintf(&b, "\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s\n", t, p.Partition, leaderLabel(p.Leader), commaIDs(p.Replicas), commaIDs(p.ISR))
		}
	}
	return b.String()
}

func commaIDs(v []int32) string {
	parts := make([]string, len(v))
	for i, id := range v {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}
