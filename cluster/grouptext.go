package cluster

import (
	"fmt"
	"strings"
)

// Text prints a group for the state text, e.g.
//
//	group coop-g: Stable generation 3 cooperative (cooperative-sticky), coordinator b2, leader K1-1
//	  member K1-1 (client K1): orders-0 orders-2
//	  member K3-3 (client K3): no partitions (assigned nothing in generation 2 ...)
//	  offset orders-0 committed 12 log-end 15 lag 3
func (g GroupInfo) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "group %s: %s generation %d %s", g.Name, g.State, g.Generation, g.Protocol)
	if g.Assignor != "" {
		fmt.Fprintf(&b, " (%s)", g.Assignor)
	}
	if g.Coordinator < 0 {
		b.WriteString(", no coordinator (its __consumer_offsets partition has no leader)")
	} else {
		fmt.Fprintf(&b, ", coordinator b%d", g.Coordinator)
	}
	if g.Leader != "" {
		fmt.Fprintf(&b, ", leader %s", g.Leader)
	}
	b.WriteString("\n")
	for _, m := range g.Members {
		fmt.Fprintf(&b, "  member %s (client %s", m.ID, m.ClientID)
		if m.InstanceID != "" {
			fmt.Fprintf(&b, ", instance %s", m.InstanceID)
		}
		b.WriteString("): ")
		if len(m.Partitions) == 0 {
			b.WriteString("no partitions")
			if m.Idle != "" {
				fmt.Fprintf(&b, " (%s)", m.Idle)
			}
		} else {
			b.WriteString(refsText(m.Partitions))
			if m.Idle != "" {
				fmt.Fprintf(&b, " (%s)", m.Idle)
			}
		}
		b.WriteString("\n")
	}
	for _, o := range g.Offsets {
		fmt.Fprintf(&b, "  offset %s-%d committed %s log-end %d lag %s\n", o.Topic, o.Partition, dash(o.Committed), o.LogEndOffset, dash(o.Lag))
	}
	return b.String()
}

func refsText(refs []PartitionRef) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = fmt.Sprintf("%s-%d", r.Topic, r.Partition)
	}
	return strings.Join(parts, " ")
}

// dash prints -1 (unknown) as "-", as kafka-consumer-groups does.
func dash(v int64) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}
