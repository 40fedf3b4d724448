package scenarios

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// group prints the parts of a group that the fact names.
func (c checker) group(f Fact) string {
	for _, g := range c.st.Groups {
		if g.Name == f.group {
			return groupText(g.Name, f.pairs, func(p [2]string) string { return groupValue(g, p) })
		}
	}
	return "no group " + f.group
}

func groupText(name string, pairs [][2]string, val func([2]string) string) string {
	out := []string{name}
	for _, p := range pairs {
		out = append(out, p[0]+"="+val(p))
	}
	return strings.Join(out, " ")
}

// groupValue is what the group has for one pair of a fact: its state,
// generation or protocol, a member's partitions (those it reads now), or
// one partition's committed offset and log end ("topic-N:C/L"). A member
// is named by its member id, or by its client id (a consumer-protocol
// member's id is a random UUID, KIP-848).
func groupValue(g cluster.GroupInfo, p [2]string) string {
	switch p[0] {
	case "state":
		return g.State
	case "generation":
		return fmt.Sprint(g.Generation)
	case "protocol":
		return g.Protocol
	case "offset":
		name, _, _ := parseOffsetFact(p[1])
		for _, o := range g.Offsets {
			if o.Topic == name.topic && o.Partition == name.n {
				return fmt.Sprintf("%s:%s/%d", name, offsetText(o.Committed), o.LogEndOffset)
			}
		}
		return name.String() + ":none"
	}
	for _, m := range g.Members {
		if m.ID == p[0] {
			return "[" + strings.Join(refs(m.Partitions), ",") + "]"
		}
	}
	for _, m := range g.Members {
		if m.ClientID == p[0] {
			return "[" + strings.Join(refs(m.Partitions), ",") + "]"
		}
	}
	return "(not a member)"
}

// refs prints partitions sorted, as a fact writes them.
func refs(ps []cluster.PartitionRef) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s-%d", p.Topic, p.Partition)
	}
	sort.Strings(out)
	return out
}

func offsetText(v int64) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

// segments prints the leader replica's segments: "events-0 3:[3,4,5]
// 6:[6,7,8]".
func (c checker) segments(f Fact) string {
	p, ok := c.partitionInfo(f.partition)
	if !ok {
		return "no partition " + f.partition.String()
	}
	if p.Leader < 0 || c.w == nil {
		return f.partition.String() + " (no leader)"
	}
	segs, err := c.w.Segments(p.Leader, p.Topic, p.Partition)
	if err != nil {
		return fmt.Sprintf("%s (%v)", f.partition, err)
	}
	out := []string{f.partition.String()}
	for _, s := range segs {
		offs := make([]string, len(s.Offsets))
		for i, o := range s.Offsets {
			offs[i] = fmt.Sprint(o)
		}
		out = append(out, fmt.Sprintf("%d:[%s]", s.BaseOffset, strings.Join(offs, ",")))
	}
	return strings.Join(out, " ")
}

// leaderLog prints the parts of a partition's leader log the fact names.
func (c checker) leaderLog(f Fact) string {
	p, ok := c.partitionInfo(f.partition)
	if !ok {
		return "no partition " + f.partition.String()
	}
	for _, l := range p.Logs {
		if l.Broker == p.Leader {
			return renderParts(c.logParts(l, f.parts), f.parts)
		}
	}
	return "no leader"
}

func (c checker) partitionInfo(n partitionName) (cluster.PartitionInfo, bool) {
	for _, p := range c.st.Partitions {
		if p.Topic == n.topic && p.Partition == n.n {
			return p, true
		}
	}
	return cluster.PartitionInfo{}, false
}
