package scenarios

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// FactKind says what a Fact talks about.
type FactKind string

// The kinds of fact.
const (
	// FactLog: one replica's log, "b1 follower [0 m1·e0*] 2/1 EC [(0,0)]".
	FactLog FactKind = "log"
	// FactController: the controller's record, "ctl leader=2 e=1 isr={2,3}".
	FactController FactKind = "ctl"
	// FactClient: a producer's results or a consumer's position,
	// "p m1=ACK(0) m2=PENDING", "c position=1 read=1".
	FactClient FactKind = "client"
	// FactViolations: the invariants the checker found broken during the
	// step, "violations log-matching" or "violations none".
	FactViolations FactKind = "violations"
	// FactGroup: a consumer group as its coordinator has it, "group
	// eager-g state=Stable generation=2 E1=[orders-0,orders-2]
	// offset=orders-0:10/20" (a member, named by its member id or its
	// client id, with the partitions it reads now; an offset is
	// committed/log-end, "-" for none).
	FactGroup FactKind = "group"
	// FactSegments: the segments of a partition's leader replica, "segments
	// events-0 3:[3,4,5] 6:[6,7,8]" (base offset: the offsets in it).
	FactSegments FactKind = "segments"
	// FactPartition: the log of a partition's leader, "users-1 [0
	// dave=v1·e0, 1 alice=v4·e0] 2/2", for scenarios with several
	// partitions (b1, b2... talk about the scenario's own partition).
	FactPartition FactKind = "partition"
	// FactFetch: a broker's reads of its logs for consumers' fetches, "fetch
	// b1 reads=100 scanned=127 scanned-bytes=37061 last-fetch=40
	// first-batch=38": the reads, the batch headers and bytes their scans
	// walked past from the offset index entry, the offset the latest read
	// asked for and the base offset of the batch it began with (-1: none).
	FactFetch FactKind = "fetch"
)

// Fact is one expectation: a subset of the state, as written in the file.
type Fact struct {
	Kind FactKind
	// Subject is "b1", "ctl", "violations", or a producer or consumer name.
	Subject string
	// Text is the fact as written, without its subject.
	Text string
	// Known, when set, says why the simulation does not reach this
	// expected fact; the check is then expected to fail.
	Known string
	// Shows marks a fact written with "shows": it backs the step's answer
	// (what the screen shows after the step proves the right choice). It
	// can carry no Known note.
	Shows bool

	broker int32
	parts  logParts
	pairs  [][2]string
	// group or partition names what a group, segments or partition fact
	// talks about.
	group     string
	partition partitionName
}

// partitionName is "topic-N" read.
type partitionName struct {
	topic string
	n     int32
}

// logParts are the parts of a replica's log a fact may name; "" = not named.
type logParts struct {
	role, records, offsets, epochs string
	hasRecords                     bool
	// noMarks ("~[...]") compares the records without page-cache marks.
	noMarks bool
}

// parseFact reads one expect line; clients are the producers' and
// consumers' names, topics those of the topics created, so far.
func parseFact(s string, clients, topics map[string]bool) (Fact, error) {
	subject, rest, _ := strings.Cut(s, " ")
	subject = strings.TrimSuffix(subject, ":") // "b1: [...]" as in the brief
	f := Fact{Subject: subject, Text: strings.TrimSpace(rest)}
	switch {
	case subject == "group":
		f.Kind = FactGroup
		return f, f.readGroup()
	case subject == "segments":
		f.Kind = FactSegments
		return f, f.readSegments()
	case isPartition(subject, topics):
		f.Kind, f.partition = FactPartition, mustPartition(subject)
		var err error
		f.parts, err = parseLogParts(f.Text)
		return f, err
	case subject == "fetch":
		f.Kind = FactFetch
		b, pairs, _ := strings.Cut(f.Text, " ")
		b = strings.TrimSuffix(b, ":") // "fetch b1: reads=2"
		n, err := strconv.ParseInt(strings.TrimPrefix(b, "b"), 10, 32)
		if !strings.HasPrefix(b, "b") || err != nil {
			return f, fmt.Errorf("%w: fetch fact about %q: not b<N>", ErrSyntax, b)
		}
		f.broker = int32(n)
		g := Fact{Subject: f.Subject, Text: pairs}
		err = g.readPairs(map[string]bool{"reads": true, "scanned": true, "scanned-bytes": true, "last-fetch": true, "first-batch": true})
		f.pairs = g.pairs
		return f, err
	case subject == "ctl":
		f.Kind = FactController
		return f, f.readPairs(map[string]bool{"leader": true, "e": true, "isr": true, "elr": true, "last-known-leader": true, "replicas": true, "hw": true, "leo": true, "start": true,
			"lso": true, "open": true, "aborted": true})
	case subject == "violations":
		f.Kind = FactViolations
		return f, nil
	case clients[subject]:
		f.Kind = FactClient
		return f, f.readPairs(nil)
	case len(subject) > 1 && subject[0] == 'b':
		n, err := strconv.ParseInt(subject[1:], 10, 32)
		if err != nil {
			return f, fmt.Errorf("%w: fact about %q", ErrSyntax, subject)
		}
		f.Kind, f.broker = FactLog, int32(n)
		f.parts, err = parseLogParts(f.Text)
		return f, err
	}
	return f, fmt.Errorf("%w: fact about %q: not b<N>, ctl, violations, group, segments, fetch, a topic's partition or a producer or consumer", ErrSyntax, subject)
}

func (f *Fact) readPairs(allowed map[string]bool) error {
	for _, tok := range strings.Fields(f.Text) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok || (allowed != nil && !allowed[k]) {
			return fmt.Errorf("%w: %s: %q is not a known key=value", ErrSyntax, f.Subject, tok)
		}
		f.pairs = append(f.pairs, [2]string{k, v})
	}
	if len(f.pairs) == 0 {
		return fmt.Errorf("%w: %s: nothing expected", ErrSyntax, f.Subject)
	}
	return nil
}

// parseLogParts reads "[role] [[records]] [LEO/HW] [EC [...]]", each part
// optional but in this order.
func parseLogParts(s string) (logParts, error) {
	var p logParts
	switch w, _, _ := strings.Cut(s, " "); w {
	case "leader", "follower", "none", "down":
		p.role, s = w, strings.TrimSpace(s[len(w):])
	}
	if strings.HasPrefix(s, "~[") {
		p.noMarks, s = true, s[1:]
	}
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return p, fmt.Errorf("%w: records without ]", ErrSyntax)
		}
		p.records, p.hasRecords, s = normRecords(s[1:end]), true, strings.TrimSpace(s[end+1:])
	}
	if s != "" && !strings.HasPrefix(s, "EC") {
		p.offsets, _, _ = strings.Cut(s, " ")
		if !strings.Contains(p.offsets, "/") {
			return p, fmt.Errorf("%w: %q is not LEO/HW", ErrSyntax, p.offsets)
		}
		s = strings.TrimSpace(s[len(p.offsets):])
	}
	if s != "" {
		if !strings.HasPrefix(s, "EC") {
			return p, fmt.Errorf("%w: unexpected %q", ErrSyntax, s)
		}
		p.epochs = strings.ReplaceAll(strings.TrimSpace(s[2:]), " ", "")
	}
	if p == (logParts{}) {
		return p, fmt.Errorf("%w: empty log fact", ErrSyntax)
	}
	return p, nil
}

// normRecords writes a record list one way: "0 m1·e0, 1 m2·e0*".
func normRecords(s string) string {
	var out []string
	for _, r := range strings.Split(s, ",") {
		if r = strings.Join(strings.Fields(r), " "); r != "" {
			out = append(out, r)
		}
	}
	return strings.Join(out, ", ")
}

// sortedSet prints words sorted and without repeats.
func sortedSet(words []string) string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}
