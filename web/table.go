package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

// PageRows is how many partitions the partition table shows at a time: a
// topic of thousands of partitions is paged, so that an update, and the
// page's DOM, stay the same size whatever the partition count.
const PageRows = 25

// MaxTopicsShown bounds the topics an update summarises (TableView.Topics):
// a client that creates ten thousand topics leaves every update as long.
const MaxTopicsShown = 20

// The partition table's filters, by the names of kafka-topics --describe's
// options (Kafka 3.7's TopicCommand.PartitionDescription: hasUnderReplicatedPartitions,
// hasUnavailablePartitions, hasUnderMinIsrPartitions, isAtMinIsrPartitions).
const (
	// StatusUnderReplicated keeps the partitions whose ISR is smaller than
	// their replicas (--under-replicated-partitions).
	StatusUnderReplicated = "under-replicated"
	// StatusUnavailable keeps those without a leader, or whose leader is
	// not an unfenced broker (--unavailable-partitions).
	StatusUnavailable = "unavailable"
	// StatusUnderMinISR keeps those without a leader or whose ISR is
	// smaller than the topic's min.insync.replicas
	// (--under-min-isr-partitions): acks=all writes fail with
	// NOT_ENOUGH_REPLICAS.
	StatusUnderMinISR = "under-min-isr"
	// StatusAtMinISR keeps those whose ISR is exactly min.insync.replicas
	// (--at-min-isr-partitions): one more replica out and acks=all writes
	// fail.
	StatusAtMinISR = "at-min-isr"
)

// The partition table's orders.
const (
	// SortPartition orders by topic, then partition (the default).
	SortPartition = "partition"
	// SortLeader orders by leader, partitions without one first.
	SortLeader = "leader"
	// SortUnderReplicated puts the partitions missing the most replicas
	// from their ISR first.
	SortUnderReplicated = "under-replicated"
	// SortLag puts the partitions whose slowest replica lags the most
	// first (PartRow.Lag).
	SortLag = "lag"
)

// TableQuery is what the page's partition table asks for: which
// partitions (Topic, Status, Leader), in which order (Sort), and which
// page of them (PageRows rows each). The zero value is every partition by
// topic and partition, the first page.
type TableQuery struct {
	// Topic keeps the partitions of the topics whose name contains it,
	// ignoring case ("" every topic).
	Topic string
	// Status keeps the partitions in a state: "" every one, or one of
	// StatusUnderReplicated, StatusUnavailable, StatusUnderMinISR,
	// StatusAtMinISR.
	Status string
	// Leader keeps the partitions broker Leader leads (0: any leader).
	Leader int32
	// Sort orders them: "" or SortPartition, SortLeader,
	// SortUnderReplicated, SortLag.
	Sort string
	// Page is the page shown, from 0 (past the last page: the last).
	Page int
}

// ErrTableQuery means a partition table query named a filter, an order
// or a page the table does not have.
var ErrTableQuery = errors.New("web: bad partition table query")

// The query parameters of a TableQuery (/api/view, /api/stream).
const (
	paramTableTopic  = "parts_topic"
	paramTableStatus = "parts_status"
	paramTableLeader = "parts_leader"
	paramTableSort   = "parts_sort"
	paramTablePage   = "parts_page"
)

// maxTopicFilter bounds the topic filter (Kafka's topic names have at
// most 249 characters).
const maxTopicFilter = 249

// TableQueryOf reads a partition table query from a page's query string:
// parts_topic, parts_status, parts_leader, parts_sort, parts_page. A
// filter, order or page it does not know is an ErrTableQuery that says
// what it takes.
func TableQueryOf(q url.Values) (TableQuery, error) {
	tq := TableQuery{Topic: q.Get(paramTableTopic), Status: q.Get(paramTableStatus), Sort: q.Get(paramTableSort)}
	if len(tq.Topic) > maxTopicFilter {
		return TableQuery{}, fmt.Errorf("%w: %s is %d bytes; a topic name has at most %d", ErrTableQuery, paramTableTopic, len(tq.Topic), maxTopicFilter)
	}
	switch tq.Status {
	case "", StatusUnderReplicated, StatusUnavailable, StatusUnderMinISR, StatusAtMinISR:
	default:
		return TableQuery{}, fmt.Errorf("%w: %s=%q; want %s, %s, %s or %s", ErrTableQuery, paramTableStatus, tq.Status,
			StatusUnderReplicated, StatusUnavailable, StatusUnderMinISR, StatusAtMinISR)
	}
	switch tq.Sort {
	case SortPartition:
		tq.Sort = ""
	case "", SortLeader, SortUnderReplicated, SortLag:
	default:
		return TableQuery{}, fmt.Errorf("%w: %s=%q; want %s, %s, %s or %s", ErrTableQuery, paramTableSort, tq.Sort,
			SortPartition, SortLeader, SortUnderReplicated, SortLag)
	}
	if s := q.Get(paramTableLeader); s != "" {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 1 {
			return TableQuery{}, fmt.Errorf("%w: %s=%q; want a broker id", ErrTableQuery, paramTableLeader, s)
		}
		tq.Leader = int32(n)
	}
	if s := q.Get(paramTablePage); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return TableQuery{}, fmt.Errorf("%w: %s=%q; want a page number from 0", ErrTableQuery, paramTablePage, s)
		}
		tq.Page = n
	}
	return tq, nil
}

// TableView is the partition table of an update: the query it answers
// (its page clamped to the last one), how many partitions match it and
// how many there are, and a summary of each topic.
type TableView struct {
	Topic  string `json:"topic,omitempty"`
	Status string `json:"status,omitempty"`
	Leader int32  `json:"leader,omitempty"`
	Sort   string `json:"sort,omitempty"`
	Page   int    `json:"page"`
	// Pages counts the pages of the partitions matching (at least 1);
	// Rows is the rows a page holds (PageRows).
	Pages int `json:"pages"`
	Rows  int `json:"rows"`
	// Matching counts the partitions the query keeps, Total the
	// partitions of every topic.
	Matching int `json:"matching"`
	Total    int `json:"total"`
	// Topics summarise the topics whose name the topic filter keeps, by
	// name, at most MaxTopicsShown; TopicsHidden counts the others.
	Topics       []TopicSummary `json:"topics"`
	TopicsHidden int            `json:"topics_hidden,omitempty"`
}

// TopicSummary is one topic in a line: its partitions and how many of
// them are in trouble.
type TopicSummary struct {
	Topic      string `json:"topic"`
	Partitions int    `json:"n"`
	// UnderReplicated, Unavailable and UnderMinISR count its partitions
	// kafka-topics --describe lists with --under-replicated-partitions,
	// --unavailable-partitions and --under-min-isr-partitions.
	UnderReplicated int `json:"urp,omitempty"`
	Unavailable     int `json:"unavailable,omitempty"`
	UnderMinISR     int `json:"under_min_isr,omitempty"`
	// Lag is the largest lag of its partitions (PartRow.Lag).
	Lag int64 `json:"lag,omitempty"`
	// Records sums the records its leaders hold below the high
	// watermark: HW − log start offset, partition by partition.
	Records int64 `json:"records"`
}

// tableRow is one partition of the table with what its filters need.
type tableRow struct {
	PartRow
	// minISR is its topic's min.insync.replicas; leaderLive says whether
	// its leader is an unfenced broker.
	minISR     int
	leaderLive bool
}

// keeps says whether q's filters keep r; topic is q.Topic in lower case.
func (r tableRow) keeps(q TableQuery, topic string) bool {
	if topic != "" && !strings.Contains(strings.ToLower(r.Topic), topic) {
		return false
	}
	if q.Leader != 0 && r.Leader != q.Leader {
		return false
	}
	hasLeader := r.Leader >= 0
	switch q.Status {
	case StatusUnderReplicated:
		return len(r.ISR) < len(r.Replicas)
	case StatusUnavailable:
		return !hasLeader || !r.leaderLive
	case StatusUnderMinISR:
		return !hasLeader || len(r.ISR) < r.minISR
	case StatusAtMinISR:
		return len(r.ISR) == r.minISR
	}
	return true
}

// compareRows orders two rows by q.Sort, then by topic and partition.
func compareRows(sort string) func(a, b tableRow) int {
	byName := func(a, b tableRow) int {
		return cmp.Or(strings.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	}
	switch sort {
	case SortLeader:
		return func(a, b tableRow) int { return cmp.Or(cmp.Compare(a.Leader, b.Leader), byName(a, b)) }
	case SortUnderReplicated:
		return func(a, b tableRow) int {
			return cmp.Or(cmp.Compare(len(b.Replicas)-len(b.ISR), len(a.Replicas)-len(a.ISR)), byName(a, b))
		}
	case SortLag:
		return func(a, b tableRow) int { return cmp.Or(cmp.Compare(b.Lag, a.Lag), byName(a, b)) }
	}
	return byName
}

// table answers q over every partition's row: the rows of the page shown
// and the table's figures.
func table(rows []tableRow, q TableQuery) ([]PartRow, TableView) {
	tv := TableView{Topic: q.Topic, Status: q.Status, Leader: q.Leader, Sort: q.Sort, Rows: PageRows, Total: len(rows), Topics: []TopicSummary{}}
	topic := strings.ToLower(q.Topic)
	var kept []tableRow
	for _, r := range rows {
		if r.keeps(q, topic) {
			kept = append(kept, r)
		}
	}
	slices.SortStableFunc(kept, compareRows(q.Sort))
	tv.Matching = len(kept)
	tv.Pages = max(1, (len(kept)+PageRows-1)/PageRows)
	tv.Page = min(q.Page, tv.Pages-1)
	page := []PartRow{}
	for _, r := range kept[min(tv.Page*PageRows, len(kept)):min((tv.Page+1)*PageRows, len(kept))] {
		page = append(page, r.PartRow)
	}
	tv.Topics, tv.TopicsHidden = summaries(rows, topic)
	return page, tv
}

// summaries sums up the topics whose name contains topic (lower case), by
// name, at most MaxTopicsShown of them, and counts the others.
func summaries(rows []tableRow, topic string) ([]TopicSummary, int) {
	of := map[string][]tableRow{}
	var names []string
	for _, r := range rows {
		if topic != "" && !strings.Contains(strings.ToLower(r.Topic), topic) {
			continue
		}
		if _, ok := of[r.Topic]; !ok {
			names = append(names, r.Topic)
		}
		of[r.Topic] = append(of[r.Topic], r)
	}
	slices.Sort(names)
	out := []TopicSummary{}
	for _, n := range names[:min(len(names), MaxTopicsShown)] {
		out = append(out, summary(of[n]))
	}
	return out, len(names) - len(out)
}

// summary sums up one topic's rows.
func summary(rows []tableRow) TopicSummary {
	s := TopicSummary{Topic: rows[0].Topic, Partitions: len(rows)}
	for _, r := range rows {
		if len(r.ISR) < len(r.Replicas) {
			s.UnderReplicated++
		}
		if r.Leader < 0 || !r.leaderLive {
			s.Unavailable++
		}
		if r.Leader < 0 || len(r.ISR) < r.minISR {
			s.UnderMinISR++
		}
		s.Lag = max(s.Lag, r.Lag)
		if r.HW > r.LogStart && r.LogStart >= 0 {
			s.Records += r.HW - r.LogStart
		}
	}
	return s
}

// tableRows makes every partition's row of st: its controller record,
// its leader's offsets, the lag of its slowest replica and what the
// table's filters need; minISR is each topic's min.insync.replicas under
// the rules that hold the high watermark while the ISR is smaller (0
// under the others: PartRow.MinISR), settings its min.insync.replicas as
// the brokers enforce it.
func tableRows(st cluster.State, minISR func(topic string) int, settings func(topic string) int) []tableRow {
	live := map[int32]bool{}
	for _, b := range st.Brokers {
		live[b.ID] = b.Controller == "unfenced"
	}
	rows := make([]tableRow, 0, len(st.Partitions))
	for _, p := range st.Partitions {
		row := partRow(p)
		if m := minISR(p.Topic); p.Leader > 0 && len(p.ISR) < m {
			row.MinISR = m
		}
		rows = append(rows, tableRow{PartRow: row, minISR: settings(p.Topic), leaderLive: live[p.Leader]})
	}
	return rows
}

// replicaLag is how far p's slowest replica is behind its leader's log
// end offset (0 without a leader).
func replicaLag(p cluster.PartitionInfo) int64 {
	if p.Leader < 0 || p.LogEndOffset < 0 {
		return 0
	}
	var lag int64
	for _, l := range p.Logs {
		behind := p.LogEndOffset - max(l.LogEndOffset, 0)
		lag = max(lag, behind)
	}
	return lag
}

// topicMinISR returns a lookup of each topic's min.insync.replicas, as the
// brokers enforce it for acks=all writes.
func topicMinISR(w *cluster.World) func(topic string) int {
	seen := map[string]int{}
	return func(topic string) int {
		if m, ok := seen[topic]; ok {
			return m
		}
		s, _ := w.TopicSettings(topic)
		seen[topic] = s.MinInsyncReplicas
		return s.MinInsyncReplicas
	}
}
