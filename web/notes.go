package web

import (
	"io/fs"
	"sort"
	"strings"
)

// NoteInfo is one note in the list.
type NoteInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Summary is the note's line in the list: what it is about.
	Summary string `json:"summary"`
	// Scenario names the guided scenario that shows the note's subject
	// ("" if none yet).
	Scenario string `json:"scenario,omitempty"`
}

// noteScenarios links each note to the guided scenario that shows it (the
// notes without one have no scenario yet: records on disk, the index,
// retention and rebalancing are shown by the live page itself).
var noteScenarios = map[string]string{
	"00-why-a-log":                   "life-of-a-record",
	"topics-partitions-offsets":      "life-of-a-record",
	"04-page-cache-and-recovery":     "acks1-loses-acked-writes",
	"05-leader-epochs":               "kip101-part1",
	"replication-isr-high-watermark": "acks-all-and-the-isr",
}

// noteCard is a note's entry in the page's list: its title there and one
// line on what it is about.
type noteCard struct{ title, summary string }

// noteCards are the notes' entries in the page's list. A note without one
// is listed with its first heading and the first sentence of its first
// paragraph.
var noteCards = map[string]noteCard{
	"00-why-a-log": {"Build your own Kafka, 0: why a log",
		"Before writing any code: why Kafka stores messages in an append-only log instead of a queue, and what that one decision buys."},
	"01-records-on-disk": {"Build your own Kafka, 1: records on disk",
		"The exact bytes Kafka writes for a batch of records: a 61-byte header, varint-encoded records and a CRC-32C. You write the varint encoder."},
	"02-offsets-and-the-index": {"Build your own Kafka, 2: offsets and the index",
		"A consumer asks for offset 217. How a broker finds it in a gigabyte file without scanning: a sparse index, binary search, then a short scan. You write the lookup."},
	"03-segments-and-retention": {"Build your own Kafka, 3: segments and retention",
		"An append-only file can only grow. Splitting the log into segment files makes deleting old data cheap. You write the retention rule."},
	"04-page-cache-and-recovery": {"Build your own Kafka, 4: the page cache and crash recovery",
		"Kafka does not fsync each write. What that costs when the power goes, how a broker repairs a torn log on startup, and why replication is the real answer. You write the recovery."},
	"05-leader-epochs": {"Build your own Kafka, 5: leader epochs",
		"Where a follower cuts its log after a restart or a new leader: the high watermark rule of Kafka 0.10, and the leader epochs of KIP-101 and KIP-279 that fixed it. You write the truncation."},
	"06-cooperative-rebalancing": {"Build your own Kafka, 6: cooperative rebalancing",
		"Who keeps which partition when a member joins: eager rebalancing stops everyone, cooperative rebalancing (KIP-429) moves only what must move. You write the cooperative-sticky assignor."},
	"consumer-groups-rebalances-lag": {"Kafka: consumer groups, rebalances and lag",
		"How a group splits partitions between its members, what happens when someone joins, leaves or crashes, where committed offsets live, and how to read lag."},
	"topics-partitions-offsets": {"Kafka: topics, partitions, offsets and the log",
		"A topic is a set of append-only logs. How records get an offset, which partition a key lands on, and what the files on a broker's disk look like."},
	"replication-isr-high-watermark": {"Kafka: replication, the ISR and the high watermark",
		"Leaders and followers, which replicas count as in sync, what acks=all really waits for, and how Kafka avoids (or allows) losing writes when a broker dies."},
}

// listNotes lists the Markdown files of notes, sorted by name, with their
// first heading as title.
func listNotes(notes fs.FS) ([]NoteInfo, error) {
	if notes == nil {
		return nil, nil
	}
	names, err := fs.Glob(notes, "*.md")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []NoteInfo
	for _, n := range names {
		b, err := fs.ReadFile(notes, n)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(n, ".md")
		if strings.HasPrefix(name, "CONTRIBUTING") {
			continue
		}
		info := NoteInfo{Name: name, Title: firstHeading(string(b), name), Summary: firstSentence(string(b)), Scenario: noteScenarios[name]}
		if c, ok := noteCards[name]; ok {
			info.Title, info.Summary = c.title, c.summary
		}
		out = append(out, info)
	}
	return out, nil
}

func firstHeading(md, fallback string) string {
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "# ") {
			return strings.TrimSpace(l[2:])
		}
	}
	return fallback
}

// firstSentence returns the first sentence of md's first paragraph, its
// markup left out ("" if it has none).
func firstSentence(md string) string {
	var para []string
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "" && para != nil:
			return sentence(strings.Join(para, " "))
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "|"):
			if para != nil {
				return sentence(strings.Join(para, " "))
			}
		default:
			para = append(para, t)
		}
	}
	return sentence(strings.Join(para, " "))
}

// sentence is p up to its first full stop, without Markdown's marks.
func sentence(p string) string {
	p = strings.NewReplacer("**", "", "`", "", "*", "").Replace(p)
	p = link.ReplaceAllString(p, "$1")
	if i := strings.Index(p, ". "); i >= 0 {
		p = p[:i+1]
	}
	return p
}
