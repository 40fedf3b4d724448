package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestTableQueryOf(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  TableQuery
		err   string
	}{
		{"", TableQuery{}, ""},
		{"parts_topic=Big&parts_status=under-replicated&parts_leader=2&parts_sort=lag&parts_page=3",
			TableQuery{Topic: "Big", Status: StatusUnderReplicated, Leader: 2, Sort: SortLag, Page: 3}, ""},
		{"parts_sort=partition", TableQuery{}, ""},
		{"parts_status=at-min-isr&parts_sort=under-replicated", TableQuery{Status: StatusAtMinISR, Sort: SortUnderReplicated}, ""},
		{"parts_status=broken", TableQuery{}, `parts_status="broken"; want under-replicated, unavailable, under-min-isr or at-min-isr`},
		{"parts_sort=size", TableQuery{}, `parts_sort="size"; want partition, leader, under-replicated or lag`},
		{"parts_leader=0", TableQuery{}, `parts_leader="0"; want a broker id`},
		{"parts_leader=x", TableQuery{}, `parts_leader="x"; want a broker id`},
		{"parts_page=-1", TableQuery{}, `parts_page="-1"; want a page number from 0`},
		{"parts_page=1e3", TableQuery{}, `parts_page="1e3"; want a page number from 0`},
		{"parts_topic=" + strings.Repeat("t", 250), TableQuery{}, "parts_topic is 250 bytes; a topic name has at most 249"},
	} {
		q, err := url.ParseQuery(tc.query)
		require.NoError(t, err)
		got, err := TableQueryOf(q)
		if tc.err != "" {
			if !errors.Is(err, ErrTableQuery) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("TableQueryOf(%.60s): %v, want an ErrTableQuery saying %q", tc.query, err, tc.err)
			}
			continue
		}
		require.NoError(t, err, tc.query)
		if d := gocmp.Diff(tc.want, got); d != "" {
			t.Errorf("TableQueryOf(%s) (-want +got):\n%s", tc.query, d)
		}
	}
}

// drawRows draws the partition table's rows of a cluster: topics of a few
// to a few hundred partitions, leaders live or gone, ISRs shrunk, lags.
func drawRows(t *rapid.T) []tableRow {
	var rows []tableRow
	for i, n := 0, rapid.IntRange(0, 6).Draw(t, "topics"); i < n; i++ {
		topic := rapid.SampledFrom([]string{"orders", "Orders-EU", "big", "a", "profiles", "big-2"}).Draw(t, "topic")
		if slices.ContainsFunc(rows, func(r tableRow) bool { return r.Topic == topic }) {
			continue
		}
		minISR := rapid.IntRange(1, 3).Draw(t, "min.insync.replicas")
		for p, parts := 0, rapid.IntRange(1, 300).Draw(t, "partitions"); p < parts; p++ {
			leader := int32(rapid.IntRange(-1, 3).Draw(t, "leader"))
			if leader == 0 {
				leader = 1
			}
			isr := []int32{1, 2, 3}[:rapid.IntRange(0, 3).Draw(t, "isr")]
			rows = append(rows, tableRow{PartRow: PartRow{Topic: topic, Partition: int32(p), Leader: leader, Replicas: []int32{1, 2, 3}, ISR: isr,
				LogStart: int64(rapid.IntRange(-1, 5).Draw(t, "log start")), HW: int64(rapid.IntRange(0, 50).Draw(t, "hw")),
				Lag: int64(rapid.IntRange(0, 9).Draw(t, "lag"))}, minISR: minISR, leaderLive: rapid.IntRange(0, 4).Draw(t, "leader fenced") > 0})
		}
	}
	return rows
}

// modelKeeps is kafka-topics --describe's filters, written out for the
// test.
func modelKeeps(r tableRow, q TableQuery) bool {
	if q.Topic != "" && !strings.Contains(strings.ToLower(r.Topic), strings.ToLower(q.Topic)) {
		return false
	}
	if q.Leader != 0 && r.Leader != q.Leader {
		return false
	}
	switch q.Status {
	case StatusUnderReplicated:
		return len(r.ISR) < len(r.Replicas)
	case StatusUnavailable:
		return r.Leader == -1 || !r.leaderLive
	case StatusUnderMinISR:
		return r.Leader == -1 || len(r.ISR) < r.minISR
	case StatusAtMinISR:
		return len(r.ISR) == r.minISR
	}
	return true
}

// modelKey is what a row is sorted by under q's order, then by name.
func modelKey(r tableRow, sort string) int64 {
	switch sort {
	case SortLeader:
		return int64(r.Leader)
	case SortUnderReplicated:
		return -int64(len(r.Replicas) - len(r.ISR))
	case SortLag:
		return -r.Lag
	}
	return 0
}

// TestTablePagesEveryPartitionOnce draws clusters' partition tables and
// queries: the pages, one after another, hold exactly the partitions the
// filters keep, in the order asked, PageRows at most each; a page past
// the last shows the last; the topics are summed up right.
func TestTablePagesEveryPartitionOnce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rows := drawRows(rt)
		q := drawTableQuery(rt, "query")
		var want []string
		kept := slices.Clone(rows)
		kept = slices.DeleteFunc(kept, func(r tableRow) bool { return !modelKeeps(r, q) })
		slices.SortStableFunc(kept, func(a, b tableRow) int {
			return cmp.Or(cmp.Compare(modelKey(a, q.Sort), modelKey(b, q.Sort)), strings.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
		})
		for _, r := range kept {
			want = append(want, partID(r.Topic, r.Partition))
		}
		var got []string
		q.Page = 0
		_, tv := table(rows, q)
		for page := 0; page < tv.Pages; page++ {
			q.Page = page
			rowsOf, tvp := table(rows, q)
			if len(rowsOf) > PageRows || tvp.Page != page || tvp.Matching != len(want) || tvp.Total != len(rows) {
				rt.Fatalf("page %d: %d rows, page %d, %d matching of %d; want at most %d rows, %d matching of %d", page, len(rowsOf), tvp.Page, tvp.Matching, tvp.Total, PageRows, len(want), len(rows))
			}
			for _, r := range rowsOf {
				got = append(got, partID(r.Topic, r.Partition))
			}
		}
		if d := gocmp.Diff(want, got); d != "" {
			rt.Fatalf("the pages of %+v (-want +got):\n%s", q, d)
		}
		q.Page = tv.Pages + rapid.IntRange(0, 5).Draw(rt, "past the last")
		last, tvl := table(rows, q)
		if tvl.Page != tv.Pages-1 || len(want) > 0 && partID(last[0].Topic, last[0].Partition) != want[(tv.Pages-1)*PageRows] {
			rt.Fatalf("page %d of %d shows page %d", q.Page, tv.Pages, tvl.Page)
		}
		checkSummaries(rt, rows, q, tv)
	})
}

// checkSummaries checks the topics' lines of tv against rows.
func checkSummaries(t *rapid.T, rows []tableRow, q TableQuery, tv TableView) {
	want := map[string]*TopicSummary{}
	var names []string
	for _, r := range rows {
		if q.Topic != "" && !strings.Contains(strings.ToLower(r.Topic), strings.ToLower(q.Topic)) {
			continue
		}
		s := want[r.Topic]
		if s == nil {
			s = &TopicSummary{Topic: r.Topic}
			want[r.Topic] = s
			names = append(names, r.Topic)
		}
		s.Partitions++
		if modelKeeps(r, TableQuery{Status: StatusUnderReplicated}) {
			s.UnderReplicated++
		}
		if modelKeeps(r, TableQuery{Status: StatusUnavailable}) {
			s.Unavailable++
		}
		if modelKeeps(r, TableQuery{Status: StatusUnderMinISR}) {
			s.UnderMinISR++
		}
		s.Lag = max(s.Lag, r.Lag)
		if r.LogStart >= 0 && r.HW > r.LogStart {
			s.Records += r.HW - r.LogStart
		}
	}
	slices.Sort(names)
	wantList := []TopicSummary{}
	for _, n := range names[:min(len(names), MaxTopicsShown)] {
		wantList = append(wantList, *want[n])
	}
	if d := gocmp.Diff(wantList, tv.Topics); d != "" || tv.TopicsHidden != len(names)-len(wantList) {
		t.Fatalf("the topics of %+v (%d hidden, want %d) (-want +got):\n%s", q, tv.TopicsHidden, len(names)-len(wantList), d)
	}
}

// TestTableSumsUpManyTopics: with more topics than MaxTopicsShown, the
// first by name are summed up and the others counted; the topic filter
// finds any of them.
func TestTableSumsUpManyTopics(t *testing.T) {
	var rows []tableRow
	for i := 0; i < 3*MaxTopicsShown; i++ {
		rows = append(rows, tableRow{PartRow: PartRow{Topic: fmt.Sprintf("t%03d", i), Leader: 1, Replicas: []int32{1}, ISR: []int32{1}}, minISR: 1, leaderLive: true})
	}
	_, tv := table(rows, TableQuery{})
	require.Len(t, tv.Topics, MaxTopicsShown)
	require.Equal(t, "t000", tv.Topics[0].Topic)
	require.Equal(t, 2*MaxTopicsShown, tv.TopicsHidden)
	page, tv := table(rows, TableQuery{Topic: "T059"})
	require.Equal(t, []TopicSummary{{Topic: "t059", Partitions: 1}}, tv.Topics)
	require.Len(t, page, 1)
}
