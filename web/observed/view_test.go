package observed_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
	"github.com/kafkalive/kafkalive/web/observed"
)

// TestViewCopiesTheSample: over the samples of the default world observed
// while brokers are killed, stopped and started again, every view a page
// can ask for (a random moment of the timeline, partition shown, table
// filter, order and page) copies its sample and invents nothing: each row
// of the table, on every page, is its partition's leader, epoch,
// replicas, ISR, ELR and leader's offsets; the rows are those the filter
// keeps; the detail holds no record and no segment, a follower's high
// watermark is not observed, the leader's is the sample's; every broker's
// page cache and traffic are not observed; the groups' committed offsets
// and lag are the sample's, their lag over time one point a sample kept up
// to the one shown; a past moment is marked past and names its sample.
// rapid prints the line that replays a failure.
func TestViewCopiesTheSample(t *testing.T) {
	live, o := observedWorld(t)
	ctx := context.Background()
	for _, act := range []func(w *cluster.World) error{
		func(w *cluster.World) error { return w.Kill(2) },
		func(w *cluster.World) error { return w.Stop(3) },
		func(w *cluster.World) error { return w.Start(2) },
		func(w *cluster.World) error { return w.Start(3) },
	} {
		require.NoError(t, live.Advance(3000))
		o.Poll(ctx)
		require.NoError(t, live.Do(nil, act))
		require.NoError(t, live.Advance(12000))
		o.Poll(ctx)
	}
	var samples []*observe.Sample
	var origin time.Time
	o.Look(func(tl *observe.Timeline) {
		samples = slices.Clone(tl.Samples())
		origin = tl.Origin()
	})
	src := observed.NewSource(o)
	rapid.Check(t, func(rt *rapid.T) {
		i := rapid.IntRange(0, len(samples)-1).Draw(rt, "sample")
		s := samples[i]
		at := s.At.Sub(origin).Milliseconds()
		p := rapid.SampledFrom(append([]*observe.Partition{{Topic: "nosuch"}}, s.Partitions...)).Draw(rt, "shown")
		f := web.Focus{Topic: p.Topic, Partition: p.Partition, Table: web.TableQuery{
			Topic:  rapid.SampledFrom([]string{"", "orders", "OFF", "nosuch"}).Draw(rt, "parts_topic"),
			Status: rapid.SampledFrom([]string{"", web.StatusUnderReplicated, web.StatusUnavailable, web.StatusUnderMinISR, web.StatusAtMinISR}).Draw(rt, "parts_status"),
			Leader: int32(rapid.IntRange(0, 3).Draw(rt, "parts_leader")),
			Sort:   rapid.SampledFrom([]string{"", web.SortLeader, web.SortUnderReplicated, web.SortLag}).Draw(rt, "parts_sort"),
			Page:   rapid.IntRange(0, 3).Draw(rt, "parts_page")}}
		u, err := src.Update(f, &at)
		if err != nil {
			rt.Fatalf("update at %d: %v", at, err)
		}
		if u.Observed.Seq != s.Seq || u.Past != (i < len(samples)-1) || u.TimeMs != at {
			rt.Fatalf("asked for sample %d at t=%d (past %v); got sample %d at t=%d past %v", s.Seq, at, i < len(samples)-1, u.Observed.Seq, u.TimeMs, u.Past)
		}
		checkRows(rt, s, u.View)
		checkDetail(rt, s, u.View, f)
		checkBrokers(rt, s, u.View)
		checkGroups(rt, samples[:i+1], u.View)
		if _, err := json.Marshal(u); err != nil {
			rt.Fatalf("the update does not encode: %v", err)
		}
	})
}

func checkRows(rt *rapid.T, s *observe.Sample, v web.View) {
	if v.Table.Total != len(s.Partitions) {
		rt.Fatalf("the table counts %d partitions; the sample has %d", v.Table.Total, len(s.Partitions))
	}
	if len(v.Partitions) > web.PageRows || v.Table.Matching > v.Table.Total {
		rt.Fatalf("a page of %d rows, %d of %d matching", len(v.Partitions), v.Table.Matching, v.Table.Total)
	}
	for _, r := range v.Partitions {
		p := s.Partition(r.Topic, r.Partition)
		if p == nil {
			rt.Fatalf("row %s-%d is no partition of the sample", r.Topic, r.Partition)
		}
		if r.Leader != p.Leader || r.Epoch != p.LeaderEpoch || !slices.Equal(r.Replicas, p.Replicas) || !slices.Equal(r.ISR, p.ISR) ||
			!slices.Equal(r.ELR, p.ELR) || r.LogStart != p.LogStartOffset || r.HW != p.HighWatermark {
			rt.Fatalf("row %s-%d: leader %d epoch %d replicas %v ISR %v ELR %v log start %d HW %d; the sample says %d %d %v %v %v %d %d",
				r.Topic, r.Partition, r.Leader, r.Epoch, r.Replicas, r.ISR, r.ELR, r.LogStart, r.HW,
				p.Leader, p.LeaderEpoch, p.Replicas, p.ISR, p.ELR, p.LogStartOffset, p.HighWatermark)
		}
		if (r.Stable == nil) != (p.LastStableOffset < 0) || r.Stable != nil && *r.Stable != p.LastStableOffset {
			rt.Fatalf("row %s-%d: LSO %v; the sample says %d", r.Topic, r.Partition, r.Stable, p.LastStableOffset)
		}
		if r.Lag < 0 {
			rt.Fatalf("row %s-%d: lag %d", r.Topic, r.Partition, r.Lag)
		}
	}
}

func checkDetail(rt *rapid.T, s *observe.Sample, v web.View, f web.Focus) {
	d := v.Detail
	if d == nil {
		rt.Fatalf("no partition in detail")
	}
	want := s.Partition(f.Topic, f.Partition)
	if want == nil {
		want = s.Partitions[0] // as the live page: the first when the one asked for is gone
	}
	if d.Topic != want.Topic || d.Partition != want.Partition {
		rt.Fatalf("detail of %s-%d; want %s-%d", d.Topic, d.Partition, want.Topic, want.Partition)
	}
	for j, l := range d.Logs {
		rl := want.Logs[j]
		if l.Broker != rl.Broker || l.LEO != rl.LogEndOffset || len(l.Records) != 0 || len(l.Segments) != 0 || l.Bytes == nil || *l.Bytes != rl.Size {
			rt.Fatalf("replica b%d: LEO %d, %d records, %d segments; the sample says b%d LEO %d size %d", l.Broker, l.LEO, len(l.Records), len(l.Segments), rl.Broker, rl.LogEndOffset, rl.Size)
		}
		switch {
		case l.Role == "leader" && (l.Broker != want.Leader || l.HW != want.HighWatermark):
			rt.Fatalf("leader b%d with HW %d; the sample's leader is %d, HW %d", l.Broker, l.HW, want.Leader, want.HighWatermark)
		case l.Role != "leader" && l.HW != web.NotObserved:
			rt.Fatalf("follower b%d shows a high watermark %d: an observer is never told it", l.Broker, l.HW)
		}
	}
}

func checkBrokers(rt *rapid.T, s *observe.Sample, v web.View) {
	if len(v.Brokers) != len(s.Brokers) {
		rt.Fatalf("%d brokers; the sample has %d", len(v.Brokers), len(s.Brokers))
	}
	for j, b := range v.Brokers {
		sb := s.Brokers[j]
		if b.ID != sb.ID || b.State != string(sb.State) {
			rt.Fatalf("broker %d %s; the sample says %d %s", b.ID, b.State, sb.ID, sb.State)
		}
		if b.CacheBytes != web.NotObserved || b.InPerSec != web.NotObserved || b.FetchReads != web.NotObserved {
			rt.Fatalf("broker %d shows a page cache of %d, %d B/s in, %d fetches: none is told to an observer", b.ID, b.CacheBytes, b.InPerSec, b.FetchReads)
		}
	}
}

func checkGroups(rt *rapid.T, upTo []*observe.Sample, v web.View) {
	s := upTo[len(upTo)-1]
	if len(v.Groups) != len(s.Groups) {
		rt.Fatalf("%d groups; the sample has %d", len(v.Groups), len(s.Groups))
	}
	for j, g := range v.Groups {
		sg := s.Groups[j]
		if g.Name != sg.Name || g.State != sg.State || len(g.Members) != len(sg.Members) {
			rt.Fatalf("group %s %s with %d members; the sample says %s %s %d", g.Name, g.State, len(g.Members), sg.Name, sg.State, len(sg.Members))
		}
		n := min(len(upTo), web.MaxLagPoints)
		if len(g.LagTimes) != n || len(g.Lags) != n || g.Lags[n-1] != s.Lag(g.Name, "", -1) {
			rt.Fatalf("group %s: %d lag points ending at %v; want %d ending at %d", g.Name, len(g.Lags), g.Lags, n, s.Lag(g.Name, "", -1))
		}
		for _, ov := range g.Offsets {
			k := slices.IndexFunc(sg.Offsets, func(o observe.GroupOffset) bool { return o.Topic == ov.Topic && o.Partition == ov.Partition })
			if k < 0 || sg.Offsets[k].Committed != ov.Committed || sg.Offsets[k].Lag != ov.Lag || len(ov.Lags) != n || ov.Lags[n-1] != ov.Lag {
				rt.Fatalf("group %s offset %s-%d: committed %d lag %d (over time %v); not the sample's", g.Name, ov.Topic, ov.Partition, ov.Committed, ov.Lag, ov.Lags)
			}
		}
	}
}
