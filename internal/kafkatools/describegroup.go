package kafkatools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
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
	// DescribeMembersVerbose is --describe --members --verbose: with each
	// member's ASSIGNMENT (Kafka 3.7), or its epoch, assignment, target
	// epoch and target assignment (Kafka 4).
	DescribeMembersVerbose
	// DescribeStateVerbose is --describe --state --verbose: Kafka 4 adds
	// the group epoch and the target assignment epoch (3.7 prints the
	// plain state).
	DescribeStateVerbose
)

// Layout is the Kafka version whose ConsumerGroupCommand's layout
// [DescribeGroup] prints.
type Layout int

// The layouts of kafka-consumer-groups --describe.
const (
	// Layout37 is Kafka 3.7's (core's ConsumerGroupCommand.scala).
	Layout37 Layout = iota
	// Layout4 is Kafka 4's (tools' ConsumerGroupCommand.java, the 4.x
	// line's): --members --verbose prints CURRENT-EPOCH,
	// CURRENT-ASSIGNMENT, TARGET-EPOCH and TARGET-ASSIGNMENT ("-" for a
	// classic group, whose DescribeGroups answer has no epochs), --state
	// --verbose GROUP-EPOCH and TARGET-ASSIGNMENT-EPOCH, the state column
	// is 20 wide, the group column its own, and the coordinator
	// "host:port  (id)" with two spaces.
	Layout4
)

// DescribeGroup prints what kafka-consumer-groups --bootstrap-server ...
// --describe --group name (with --members or --state [--verbose] for those
// modes) prints for the group in state s, in the layout of Kafka 3.7's or
// Kafka 4's ConsumerGroupCommand (printOffsets, printMembers, printStates):
// left-aligned columns at least 15 wide (PARTITION 10), widened to the
// longest value; "-" for a missing value; GROUP-INSTANCE-ID only when a
// member is static; a warning line while the group rebalances, a note when
// it has no active members; "Error: Consumer group 'x' does not exist."
// for a group the coordinator does not know. groups are the world's
// groups ([cluster.World.Groups], or a State's).
func DescribeGroup(groups []cluster.GroupInfo, name string, mode DescribeMode, layout Layout) string {
	var g *cluster.GroupInfo
	for i := range groups {
		if groups[i].Name == name {
			g = &groups[i]
		}
	}
	if g == nil || g.State == "Dead" {
		return fmt.Sprintf("\nError: Consumer group '%s' does not exist.\n", name)
	}
	if g.Coordinator < 0 {
		return "\nError: Executing consumer group command failed due to org.apache.kafka.common.errors.CoordinatorNotAvailableException: The coordinator is not available.\n"
	}
	var b strings.Builder
	if mode != DescribeState && mode != DescribeStateVerbose {
		switch g.State {
		case "Empty":
			fmt.Fprintf(&b, "\nConsumer group '%s' has no active members.\n", name)
		case "PreparingRebalance", "CompletingRebalance", "Assigning", "Reconciling":
			// A consumer-protocol group on its way to a new target
			// assignment is rebalancing too (Kafka 4's
			// shouldPrintMemberState).
			fmt.Fprintf(&b, "\nWarning: Consumer group '%s' is rebalancing.\n", name)
		}
	}
	switch {
	case mode == DescribeMembersVerbose && layout == Layout4:
		describeMembers4(&b, g)
	case mode == DescribeMembers, mode == DescribeMembersVerbose:
		describeMembers(&b, g, mode == DescribeMembersVerbose)
	case layout == Layout4 && (mode == DescribeState || mode == DescribeStateVerbose):
		describeState4(&b, g, mode == DescribeStateVerbose)
	case mode == DescribeState, mode == DescribeStateVerbose:
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

// describeOffsets is printOffsets: no table at all for a group with no
// row to show (shouldPrintMemberState: zero rows), only the note above.
func describeOffsets(b *strings.Builder, g *cluster.GroupInfo) {
	if len(g.Offsets) == 0 && len(g.Members) == 0 {
		return
	}
	members := map[string]cluster.MemberInfo{}
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

// describeMembers is printMembers: the GROUP-INSTANCE-ID column only when
// a member has one, every column but ASSIGNMENT padded and followed by a
// space (#PARTITIONS too), nothing but the note for a group without
// members.
func describeMembers(b *strings.Builder, g *cluster.GroupInfo, verbose bool) {
	if len(g.Members) == 0 {
		return
	}
	static := false
	widths := []int{15, 15, 17, 15, 15, 15}
	rows := [][]string{{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS"}}
	for _, m := range g.Members {
		static = static || m.InstanceID != ""
		rows = append(rows, []string{g.Name, m.ID, m.InstanceID, m.Host, m.ClientID, fmt.Sprint(len(m.Assignment))})
	}
	for _, r := range rows[1:] {
		for i := range 5 {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	for i, r := range rows {
		b.WriteString("\n")
		for c, v := range r {
			if c == 2 && !static {
				continue
			}
			fmt.Fprintf(b, "%-*s ", widths[c], v)
		}
		if verbose && i == 0 {
			b.WriteString("ASSIGNMENT")
		} else if verbose {
			b.WriteString(assignmentColumn(g.Members[i-1].Assignment))
		}
	}
	b.WriteString("\n")
}

// assignmentColumn is ASSIGNMENT: "orders(0,2), users(1)", each topic's
// partitions sorted, the topics sorted; "-" for none.
func assignmentColumn(ps []cluster.PartitionRef) string {
	return assignmentString(ps, func(t, parts string) string { return t + "(" + parts + ")" }, ", ")
}

// assignmentString writes each topic of ps with its partitions, sorted and
// joined by commas, as topic(t, parts) says, the topics sorted and joined
// by sep; "-" for none.
func assignmentString(ps []cluster.PartitionRef, topic func(t, parts string) string, sep string) string {
	byTopic := map[string][]int{}
	for _, p := range ps {
		byTopic[p.Topic] = append(byTopic[p.Topic], int(p.Partition))
	}
	var out []string
	for t, parts := range byTopic {
		slices.Sort(parts)
		s := make([]string, len(parts))
		for i, p := range parts {
			s[i] = fmt.Sprint(p)
		}
		out = append(out, topic(t, strings.Join(s, ",")))
	}
	if len(out) == 0 {
		return "-"
	}
	slices.Sort(out)
	return strings.Join(out, sep)
}

// describeState is printStates: the first column is as wide as the
// coordinator's column (at least 25), then 25, 20 and 15, values never
// widen a column, and the header and the row each start a line.
func describeState(b *strings.Builder, g *cluster.GroupInfo) {
	strategy := g.Assignor
	if strategy == "" {
		strategy = "-"
	}
	coordinator := fmt.Sprintf("b%d:9092 (%d)", g.Coordinator, g.Coordinator)
	w := max(25, len(coordinator))
	for _, r := range [][]string{
		{"GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"},
		{g.Name, coordinator, strategy, g.State, fmt.Sprint(len(g.Members))},
	} {
		fmt.Fprintf(b, "\n%-*s %-25s %-20s %-15s %s", w, r[0], r[1], r[2], r[3], r[4])
	}
	b.WriteString("\n")
}

// dash prints -1 (unknown) as "-", as kafka-consumer-groups does.
func dash(v int64) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}
