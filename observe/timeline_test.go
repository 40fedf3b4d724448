package observe

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestTimelineStaysBounded: whatever samples and events are added, the
// timeline holds at most MaxSamples samples, at most MaxBytes of their own
// bytes (but always the newest sample), at most MaxEvents events; the
// oldest fall off first and are counted; At finds the newest sample taken
// at or before any moment.
func TestTimelineStaysBounded(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := Config{MaxSamples: rapid.IntRange(1, 20).Draw(rt, "max samples"),
			MaxBytes:  rapid.Int64Range(1, 5000).Draw(rt, "max bytes"),
			MaxEvents: rapid.IntRange(1, 30).Draw(rt, "max events")}
		tl := newTimeline(cfg)
		var added []*Sample
		events := 0
		at := time.Unix(1_700_000_000, 0)
		for i := range rapid.IntRange(1, 60).Draw(rt, "samples") {
			at = at.Add(time.Duration(rapid.IntRange(1, 3000).Draw(rt, "gap ms")) * time.Millisecond)
			s := &Sample{Seq: uint64(i + 1), At: at, size: rapid.Int64Range(0, 2000).Draw(rt, "size")}
			evs := make([]Event, rapid.IntRange(0, 5).Draw(rt, "events"))
			for j := range evs {
				evs[j].Seq, evs[j].Text = s.Seq, "e"
			}
			tl.add(s, evs)
			added = append(added, s)
			events += len(evs)

			droppedSamples, droppedEvents := tl.Dropped()
			kept := added[droppedSamples:]
			seqs := func(ss []*Sample) []uint64 {
				out := make([]uint64, len(ss))
				for i, s := range ss {
					out[i] = s.Seq
				}
				return out
			}
			if diff := cmp.Diff(seqs(kept), seqs(tl.Samples())); diff != "" {
				rt.Fatalf("samples kept (-want +got):\n%s", diff)
			}
			var bytes int64
			for _, k := range kept {
				bytes += k.size
			}
			switch {
			case tl.Latest() != s:
				rt.Fatalf("the newest sample is not kept")
			case tl.Len() > cfg.MaxSamples:
				rt.Fatalf("%d samples kept, at most %d", tl.Len(), cfg.MaxSamples)
			case tl.Bytes() != bytes:
				rt.Fatalf("bytes %d counted, %d held", tl.Bytes(), bytes)
			case bytes > cfg.MaxBytes && tl.Len() > 1:
				rt.Fatalf("%d bytes in %d samples, at most %d", bytes, tl.Len(), cfg.MaxBytes)
			case droppedSamples > 0 && bytes+added[droppedSamples-1].size <= cfg.MaxBytes && tl.Len() < cfg.MaxSamples:
				rt.Fatalf("sample %d dropped though it fit", added[droppedSamples-1].Seq)
			case len(tl.Events()) > cfg.MaxEvents || len(tl.Events())+droppedEvents != events:
				rt.Fatalf("%d events kept, %d dropped, %d added, at most %d", len(tl.Events()), droppedEvents, events, cfg.MaxEvents)
			case !tl.Start().Equal(kept[0].At):
				rt.Fatalf("start %s, oldest sample at %s", tl.Start(), kept[0].At)
			}
			for _, k := range added {
				want := k
				if k.Seq <= uint64(droppedSamples) {
					want = nil
				}
				if got := tl.Seq(k.Seq); got != want {
					rt.Fatalf("Seq(%d) = %v, want %v", k.Seq, got, want)
				}
			}
			if tl.Seq(s.Seq+1) != nil {
				rt.Fatalf("Seq(%d) found a sample not taken yet", s.Seq+1)
			}
			probe := kept[0].At.Add(time.Duration(rapid.Int64Range(-1000, at.Sub(kept[0].At).Milliseconds()+1000).Draw(rt, "probe ms")) * time.Millisecond)
			var want *Sample
			for _, k := range kept {
				if !k.At.After(probe) {
					want = k
				}
			}
			if got := tl.At(probe); got != want {
				rt.Fatalf("At(%s) = %v, want %v", probe, got, want)
			}
		}
	})
}

// TestLagOverTime: a group's lag a sample, on one partition or summed
// over its partitions; a sample that did not tell it is NotObserved.
func TestLagOverTime(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	off := func(p int32, lag int64) GroupOffset { return GroupOffset{Topic: "t", Partition: p, Lag: lag} }
	tl := newTimeline(Config{MaxSamples: 10, MaxBytes: 1 << 20, MaxEvents: 10})
	for i, offsets := range [][]GroupOffset{
		{off(0, 5), off(1, 7)},
		{off(0, 2), off(1, NotObserved)},
		nil, // the group not listed
		{off(0, NotObserved), off(1, NotObserved)},
	} {
		s := &Sample{Seq: uint64(i + 1), At: at.Add(time.Duration(i) * time.Second)}
		if offsets != nil {
			s.Groups = []*Group{{Name: "a"}, {Name: "g", Offsets: offsets}}
		}
		tl.add(s, nil)
	}
	lags := func(ps []LagPoint) []int64 {
		out := make([]int64, len(ps))
		for i, p := range ps {
			out[i] = p.Lag
		}
		return out
	}
	for _, tc := range []struct {
		topic     string
		partition int32
		want      []int64
	}{
		{"", 0, []int64{12, 2, NotObserved, NotObserved}},
		{"t", 0, []int64{5, 2, NotObserved, NotObserved}},
		{"t", 1, []int64{7, NotObserved, NotObserved, NotObserved}},
		{"other", 0, []int64{NotObserved, NotObserved, NotObserved, NotObserved}},
	} {
		if diff := cmp.Diff(tc.want, lags(tl.Lag("g", tc.topic, tc.partition))); diff != "" {
			t.Errorf("lag of g on %q-%d (-want +got):\n%s", tc.topic, tc.partition, diff)
		}
	}
}
