package cluster

import (
	"fmt"
	"strings"
)

// DescribeMode picks the view of [DescribeGroup].
type DescribeMode int

// The views of kafka-consumer-groups --describe.
const (
	// DescribeOffsets is plain --describe: one row per partition.
	DescribeOffsets DescribeMode = iota
	// DescribeMembers is --describe --members.
	DescribeMembers
	// DescribeState is --describe --state.
	DescribeState
)

// DescribeGroup prints what kafka-consumer-groups --bootstrap-server ...
// --describe --group name (with --members or --state for those modes)
// prints for the group in state s, in the layout of Kafka 3.x's
// ConsumerGroupCommand: left-aligned columns at least 15 wide (PARTITION
// 10), widened to the longest value; "-" for a missing value; a warning
// line while the group rebalances, a note when it has no active members.
func DescribeGroup(s State, name string, mode DescribeMode) string {
	var g *GroupInfo
	for i := range s.Groups {
		if s.Groups[i].Name == name {
			g = &s.Groups[i]
		}
	}
	if g == nil || g.State == "Dead" {
		return fmt.Sprintf("\nConsumer group '%s' does not exist.\n", name)
	}
	if g.Coordinator < 0 {
		return fmt.Sprintf("\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.CoordinatorNotAvailableException: The coordinator is not available.\n")
	}
	var b strings.Builder
	if mode != DescribeState {
		switch g.State {
		case "Empty":
			fmt.Fprintf(&b, "\nConsumer group '%s' has no active members.\n", name)
		case "PreparingRebalance", "CompletingRebalance":
			fmt.Fprintf(&b, "\nWarning: Consumer group '%s' is rebalancing.\n", name)
		}
	}
	switch mode {
	case DescribeMembers:
		describeMembers(&b, g)
	case DescribeState:
		describeState(&b, g)
	default:
		describeOffsets(&b, g)
	}
	return b.String()
}

// table prints rows as left-aligned columns of at least the given widths,
// widened to fit, each row on a new line after a leading newline (as the
// tool's printf("\n%-15s ...") does), the last column unpadded.
func table(b *strings.Builder, widths []int, rows [][]string) {
	w := append([]int(nil), widths...)
	for _, r := range rows {
		for i, c := range r {
			if i < len(w) && len(c) > w[i] {
				w[i] = len(c)
			}
		}
	}
	for _, r := range rows {
		b.WriteString("\n")
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			fmt.Fprintf(b, "%-*s ", w[i], c)
		}
	}
	b.WriteString("\n")
}

func describeOffsets(b *strings.Builder, g *GroupInfo) {
	members := map[string]MemberInfo{}
	for _, m := range g.Members {
		members[m.ID] = m
	}
	rows := [][]string{{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID"}}
	for _, o := range g.Offsets {
		id, host, client := "-", "-", "-"
		if m, ok := members[o.Member]; ok {
			id, host, client = m.ID, m.Host, m.ClientID
		}
		rows = append(rows, []string{g.Name, o.Topic, fmt.Sprint(o.Partition), dash(o.Committed), dash(o.LogEndOffset), dash(o.Lag), id, host, client})
	}
	table(b, []int{15, 15, 10, 15, 15, 15, 15, 15, 0}, rows)
}

func describeMembers(b *strings.Builder, g *GroupInfo) {
	rows := [][]string{{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS"}}
	for _, m := range g.Members {
		inst := m.InstanceID
		if inst == "" {
			inst = "-"
		}
		rows = append(rows, []string{g.Name, m.ID, inst, m.Host, m.ClientID, fmt.Sprint(len(m.Assignment))})
	}
	table(b, []int{15, 15, 17, 15, 15, 0}, rows)
}

func describeState(b *strings.Builder, g *GroupInfo) {
	strategy := g.Assignor
	if strategy == "" {
		strategy = "-"
	}
	rows := [][]string{
		{"GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"},
		{g.Name, fmt.Sprintf("b%d:9092 (%d)", g.Coordinator, g.Coordinator), strategy, g.State, fmt.Sprint(len(g.Members))},
	}
	table(b, []int{15, 25, 20, 20, 0}, rows)
}
