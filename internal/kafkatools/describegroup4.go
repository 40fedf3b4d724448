package kafkatools

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// Kafka 4's kafka-consumer-groups --describe (tools'
// ConsumerGroupCommand.java in the 4.x line) describes both kinds of group
// through the admin client's describeConsumerGroups: a consumer-protocol
// group (KIP-848) from ConsumerGroupDescribe, with its epochs and each
// member's target assignment, a classic group from DescribeGroups, without
// them ("-"). Its plain and --members views keep 3.7's columns; --verbose
// adds the epochs.

// describeMembers4 is Kafka 4's printMembers with --verbose: 3.7's columns
// up to #PARTITIONS, then CURRENT-EPOCH (15), CURRENT-ASSIGNMENT and
// TARGET-ASSIGNMENT (at least 20, widened to the longest), TARGET-EPOCH
// (15), the target epoch being the group's target assignment epoch; a
// group without members prints nothing but its note, as 3.7's does.
func describeMembers4(b *strings.Builder, g *cluster.GroupInfo) {
	if len(g.Members) == 0 {
		return
	}
	consumer := g.GroupProtocol == cluster.GroupProtocolConsumer
	static := false
	widths := []int{15, 15, 17, 15, 15, 15, 15, 20, 15, 20}
	rows := [][]string{{"GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS",
		"CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT"}}
	for _, m := range g.Members {
		static = static || m.InstanceID != ""
		epoch, target, targetEpoch := "-", "-", "-"
		if consumer {
			epoch, target, targetEpoch = fmt.Sprint(m.MemberEpoch), assignmentColumn4(m.Target), fmt.Sprint(g.AssignmentEpoch)
		}
		rows = append(rows, []string{g.Name, m.ID, m.InstanceID, m.Host, m.ClientID, fmt.Sprint(len(m.Assignment)),
			epoch, assignmentColumn4(m.Assignment), targetEpoch, target})
	}
	for _, r := range rows[1:] {
		for _, c := range []int{0, 1, 2, 3, 4, 7, 9} {
			widths[c] = max(widths[c], len(r[c]))
		}
	}
	for _, r := range rows {
		b.WriteString("\n")
		for c, v := range r {
			switch {
			case c == 2 && !static:
			case c == len(r)-1:
				b.WriteString(v)
			default:
				fmt.Fprintf(b, "%-*s ", widths[c], v)
			}
		}
	}
	b.WriteString("\n")
}

// assignmentColumn4 is Kafka 4's getAssignmentString: "orders:0,2;users:1",
// each topic's partitions sorted, the topics sorted; "-" for none.
func assignmentColumn4(ps []cluster.PartitionRef) string {
	return assignmentString(ps, func(t, parts string) string { return t + ":" + parts }, ";")
}

// describeState4 is Kafka 4's printStates: the group column at least 15
// wide and the coordinator's at least 25, widened to their values, then
// ASSIGNMENT-STRATEGY and STATE 20 wide; --verbose adds GROUP-EPOCH (15)
// and TARGET-ASSIGNMENT-EPOCH (25), "-" for a classic group.
func describeState4(b *strings.Builder, g *cluster.GroupInfo, verbose bool) {
	strategy := g.Assignor
	if strategy == "" {
		strategy = "-"
	}
	coordinator := fmt.Sprintf("b%d:9092  (%d)", g.Coordinator, g.Coordinator)
	gw, cw := max(15, len(g.Name)), max(25, len(coordinator))
	rows := [][]string{{"GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE"}, {g.Name, coordinator, strategy, g.State}}
	if verbose {
		epoch, target := "-", "-"
		if g.GroupProtocol == cluster.GroupProtocolConsumer {
			epoch, target = fmt.Sprint(g.Generation), fmt.Sprint(g.AssignmentEpoch)
		}
		rows[0] = append(rows[0], "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH")
		rows[1] = append(rows[1], epoch, target)
	}
	rows[0] = append(rows[0], "#MEMBERS")
	rows[1] = append(rows[1], fmt.Sprint(len(g.Members)))
	widths := []int{gw, cw, 20, 20, 15, 25}
	for _, r := range rows {
		b.WriteString("\n")
		for c, v := range r {
			if c == len(r)-1 {
				b.WriteString(v)
				break
			}
			fmt.Fprintf(b, "%-*s ", widths[c], v)
		}
	}
	b.WriteString("\n")
}
