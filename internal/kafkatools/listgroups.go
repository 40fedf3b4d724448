package kafkatools

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// kafka-consumer-groups --list. Without --type or --state it prints the
// group ids, one a line. With --state [S,...] (both versions) or --type
// [T,...] (Kafka 4: KIP-848's group types), it prints a table of the
// groups the filters keep, as the tool's printGroupInfo does in the 4.x
// line (tools' ConsumerGroupCommand.java, trunk of late 2024): a GROUP
// column as wide as the longest id (at least 15) plus 10, then TYPE and
// STATE, 20 wide each, every column padded (the last too). Kafka 3.7's
// printGroupStates prints GROUP (at least 15, widened to the longest id)
// and STATE, the state unpadded; --type is not one of its options.

// listFilter is what --list was asked for.
type listFilter struct {
	withType, withState bool
	types, states       []string // lower-case; empty: all
}

// groupTypes and groupStates are Kafka's names (GroupType and
// ConsumerGroupState in the trunk of late 2024), in their enums' order.
var (
	groupTypes  = []string{"Consumer", "Classic", "Share"}
	groupStates = []string{"PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning", "Reconciling"}
)

// parseListFilter reads --type and --state (each with an optional value,
// a comma-separated list, matched case-insensitively), refusing an unknown
// name as Kafka's tool does (an IllegalArgumentException: usage and exit).
func parseListFilter(args []string, layout Layout) (listFilter, error) {
	var f listFilter
	var typeValue, stateValue string
	typeValue, f.withType = optionalValue(args, "type")
	stateValue, f.withState = optionalValue(args, "state")
	if f.withType && layout == Layout37 {
		return f, fmt.Errorf("%w: type is not a recognized option", ErrUsage)
	}
	var err error
	if f.types, err = parseNames(typeValue, groupTypes, "Invalid types list '%s'. Valid types are: %s"); err != nil {
		return f, err
	}
	if f.states, err = parseNames(stateValue, groupStates, "Invalid state list '%s'. Valid states are: %s"); err != nil {
		return f, err
	}
	return f, nil
}

// parseNames splits a comma-separated list of names out of known,
// case-insensitively; "" is none.
func parseNames(value string, known []string, invalid string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	var out []string
	for _, v := range strings.Split(value, ",") {
		v = strings.ToLower(strings.TrimSpace(v))
		if !slices.ContainsFunc(known, func(k string) bool { return strings.ToLower(k) == v }) {
			return nil, fmt.Errorf("%w: "+invalid, ErrUsage, value, strings.Join(known, ", "))
		}
		out = append(out, v)
	}
	return out, nil
}

// optionalValue is a flag whose value is optional (joptsimple's
// withOptionalArg): "--name V", "--name=V" or "--name" alone, and whether
// it was given.
func optionalValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
		if a == "--"+name {
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				return args[i+1], true
			}
			return "", true
		}
	}
	return "", false
}

// groupType is a group's type as ListGroups v5 names it: Consumer for a
// consumer-protocol group (KIP-848), Classic for every other.
func groupType(g cluster.GroupInfo) string {
	if g.GroupProtocol == cluster.GroupProtocolConsumer {
		return "Consumer"
	}
	return "Classic"
}

// ListGroups prints kafka-consumer-groups --list for groups (the world's,
// [cluster.World.Groups]) in layout, its options in args (--type,
// --state); an unknown type or state, or --type under Kafka 3.7, is an
// [ErrUsage] with Kafka's message.
func ListGroups(out io.Writer, groups []cluster.GroupInfo, args []string, layout Layout) error {
	f, err := parseListFilter(args, layout)
	if err != nil {
		return err
	}
	listGroups(out, groups, f, layout)
	return nil
}

// listGroups prints --list for groups.
func listGroups(out io.Writer, groups []cluster.GroupInfo, f listFilter, layout Layout) {
	if !f.withType && !f.withState {
		for _, g := range groups {
			fmt.Fprintln(out, g.Name)
		}
		return
	}
	var kept []cluster.GroupInfo
	for _, g := range groups {
		if g.State == "Dead" {
			continue
		}
		if len(f.types) > 0 && !slices.Contains(f.types, strings.ToLower(groupType(g))) ||
			len(f.states) > 0 && !slices.Contains(f.states, strings.ToLower(g.State)) {
			continue
		}
		kept = append(kept, g)
	}
	w := 15
	for _, g := range kept {
		w = max(w, len(g.Name))
	}
	if layout == Layout37 {
		fmt.Fprintf(out, "%-*s %s\n", w, "GROUP", "STATE")
		for _, g := range kept {
			fmt.Fprintf(out, "%-*s %s\n", w, g.Name, g.State)
		}
		return
	}
	row := func(name, typ, state string) {
		s := fmt.Sprintf("%-*s", w+10, name)
		if f.withType {
			s += fmt.Sprintf(" %-20s", typ)
		}
		if f.withState {
			s += fmt.Sprintf(" %-20s", state)
		}
		fmt.Fprintln(out, s)
	}
	row("GROUP", "TYPE", "STATE")
	for _, g := range kept {
		row(g.Name, groupType(g), g.State)
	}
}
