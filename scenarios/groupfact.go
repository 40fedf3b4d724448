package scenarios

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// readGroup reads "NAME state=S generation=N MEMBER=[t-0,t-1]
// offset=t-0:10/20": the group's name, then key=value pairs (state,
// generation, protocol, offset, or a member id whose value is a partition
// list in brackets).
func (f *Fact) readGroup() error {
	name, rest, _ := strings.Cut(f.Text, " ")
	if name == "" || strings.Contains(name, "=") {
		return fmt.Errorf("%w: group fact needs a group name first", ErrSyntax)
	}
	f.group, f.Text = name, name+" "+strings.TrimSpace(rest)
	for _, tok := range strings.Fields(normLists(rest)) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok || k == "" {
			return fmt.Errorf("%w: group %s: %q is not key=value", ErrSyntax, name, tok)
		}
		switch {
		case k == "state" || k == "protocol":
		case k == "generation":
			if _, err := strconv.Atoi(v); err != nil {
				return fmt.Errorf("%w: group %s: generation %q", ErrSyntax, name, v)
			}
		case k == "offset":
			if _, _, ok := parseOffsetFact(v); !ok {
				return fmt.Errorf("%w: group %s: offset %q is not topic-N:COMMITTED/LOG-END", ErrSyntax, name, v)
			}
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
			v = "[" + strings.Join(sortedList(v), ",") + "]"
		default:
			return fmt.Errorf("%w: group %s: %q is not state, generation, protocol, offset or MEMBER=[partitions]", ErrSyntax, name, tok)
		}
		f.pairs = append(f.pairs, [2]string{k, v})
	}
	if len(f.pairs) == 0 {
		return fmt.Errorf("%w: group %s: nothing expected", ErrSyntax, name)
	}
	return nil
}

// readSegments reads "events-0 0:[0,1,2] 3:[3,4,5] 9:[]".
func (f *Fact) readSegments() error {
	name, rest, _ := strings.Cut(f.Text, " ")
	p, ok := readPartition(name)
	if !ok {
		return fmt.Errorf("%w: segments of %q: not topic-N", ErrSyntax, name)
	}
	f.partition = p
	var segs []string
	for _, tok := range strings.Fields(normLists(rest)) {
		base, offs, ok := strings.Cut(tok, ":")
		if _, err := strconv.ParseInt(base, 10, 64); err != nil || !ok || !strings.HasPrefix(offs, "[") || !strings.HasSuffix(offs, "]") {
			return fmt.Errorf("%w: segments %s: %q is not BASE:[offsets]", ErrSyntax, name, tok)
		}
		segs = append(segs, tok)
	}
	if len(segs) == 0 {
		return fmt.Errorf("%w: segments %s: no segment written (an empty log still has one)", ErrSyntax, name)
	}
	f.Text = name + " " + strings.Join(segs, " ")
	return nil
}

// parseOffsetFact reads "orders-0:10/20" (committed "-" for none).
func parseOffsetFact(v string) (partitionName, string, bool) {
	name, offs, ok := strings.Cut(v, ":")
	p, okp := readPartition(name)
	c, l, oks := strings.Cut(offs, "/")
	return p, offs, ok && okp && oks && (c == "-" || isInt(c)) && isInt(l)
}

func isInt(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// readPartition reads "topic-N".
func readPartition(s string) (partitionName, bool) {
	i := strings.LastIndexByte(s, '-')
	if i <= 0 {
		return partitionName{}, false
	}
	n, err := strconv.ParseInt(s[i+1:], 10, 32)
	if err != nil || n < 0 {
		return partitionName{}, false
	}
	return partitionName{topic: s[:i], n: int32(n)}, true
}

// isPartition reports whether s names a partition of a topic created so
// far.
func isPartition(s string, topics map[string]bool) bool {
	p, ok := readPartition(s)
	return ok && topics[p.topic]
}

func mustPartition(s string) partitionName {
	p, _ := readPartition(s)
	return p
}

func (p partitionName) String() string { return fmt.Sprintf("%s-%d", p.topic, p.n) }

// normLists removes the spaces after commas, so that "[a, b]" is one word.
func normLists(s string) string {
	for strings.Contains(s, ", ") {
		s = strings.ReplaceAll(s, ", ", ",")
	}
	return s
}

// sortedList reads "[b,a]" as [a b] (a member's partitions are a set).
func sortedList(v string) []string {
	inner := strings.Trim(v, "[]")
	if inner == "" {
		return nil
	}
	out := strings.Split(inner, ",")
	sort.Strings(out)
	return out
}
