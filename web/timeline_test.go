package web

import (
	"io"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/stretchr/testify/require"
)

// TestTimelineStartsAtTheOldestMomentKept runs a world that keeps 5 s of
// history: the view's start moves with it, the marks before it go, a
// moment from the start on can be shown and one before it cannot.
func TestTimelineStartsAtTheOldestMomentKept(t *testing.T) {
	cfg := defaultworld.Config(defaultworld.Seed)
	cfg.Timeline = cluster.TimelineConfig{SnapshotEveryMs: 1000, KeepMs: 5000}
	w, err := cluster.New(cfg)
	require.NoError(t, err)
	for _, tp := range defaultworld.Topics() {
		require.NoError(t, w.CreateTopic(tp))
	}
	require.NoError(t, w.AddProducer(defaultworld.Producers()[0]))
	live := NewLiveWorld(w)
	term := NewTerminal(live)
	for i := range 100 {
		require.NoError(t, live.Advance(100))
		if i == 10 || i == 90 {
			require.NoError(t, term.Exec("produce checkout typed", nil, io.Discard))
		}
	}
	v, err := live.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	if v.StartMs < 4000 || v.StartMs > 6000 {
		t.Fatalf("after 10 s keeping 5 s the timeline starts at %d ms", v.StartMs)
	}
	for _, m := range v.Marks {
		if m.TimeMs < v.StartMs {
			t.Fatalf("the timeline marks %q at %d ms, before its start %d", m.Text, m.TimeMs, v.StartMs)
		}
	}
	if len(v.Marks) != 1 {
		t.Fatalf("the timeline marks %v, want only the produce at 9.1 s", v.Marks)
	}
	at := v.StartMs + 50
	past, err := live.View(Focus{Topic: "orders"}, &at)
	require.NoError(t, err)
	if !past.Past || past.TimeMs != at {
		t.Fatalf("the view at %d ms shows t=%d (past %v)", at, past.TimeMs, past.Past)
	}
	before := v.StartMs - 1
	if _, err := live.View(Focus{Topic: "orders"}, &before); err == nil {
		t.Fatalf("a moment before the timeline's start (%d ms) was shown", before)
	}
}
