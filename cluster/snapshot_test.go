package cluster_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// busyWorld builds a world with two topics, a keyed acks=all producer, a
// keyless acks=1 producer and a group of two members, run for ms.
func busyWorld(t testing.TB, timeline cluster.TimelineConfig, ms int64) *cluster.World {
	log := cluster.DefaultLogConfig()
	log.SegmentBytes = 2 << 10
	log.RetentionMs = 20 * 1000
	w, err := cluster.New(cluster.Config{Seed: 11, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2,
		Log: log, LogRetentionCheckIntervalMs: 5000, OffsetsTopicNumPartitions: 3, Timeline: timeline})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 3, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "keyed", Topic: "orders", Acks: "all", Keys: []string{"a", "b", "c"}, RecordsPerSec: 5}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 3}))
	for _, name := range []string{"m1", "m2"} {
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: name, Group: "g", Topics: []string{"orders"}, PollIntervalMs: 500, MaxPollRecords: 4}))
	}
	for w.NowMs() < ms {
		require.NoError(t, w.RunFor(min(700, ms-w.NowMs())))
	}
	return w
}

// faults are the actions both sides of a clone get.
var faults = []cluster.Action{
	{Kind: cluster.ActKill, Broker: 2}, {Kind: cluster.ActRun, Ms: 4000},
	{Kind: cluster.ActPowerCut, Broker: 3, Torn: true}, {Kind: cluster.ActRun, Ms: 12000},
	{Kind: cluster.ActStart, Broker: 2}, {Kind: cluster.ActStart, Broker: 3}, {Kind: cluster.ActRun, Ms: 8000},
	{Kind: cluster.ActCrashConsumer, Name: "m1"}, {Kind: cluster.ActRun, Ms: 15000},
}

func TestCloneEvolvesIndependentlyAndIdentically(t *testing.T) {
	w := busyWorld(t, cluster.TimelineConfig{}, 10000)
	before := w.State().Text()
	c := w.Clone()
	require.Equal(t, before, c.State().Text(), "a fresh clone shows the same state")
	for _, a := range faults {
		require.NoError(t, c.Do(a), "clone: %s", a)
	}
	if diff := cmp.Diff(before, w.State().Text()); diff != "" {
		t.Fatalf("faults on the clone changed the original (-before +after):\n%s", diff)
	}
	for _, a := range faults {
		require.NoError(t, w.Do(a), "original: %s", a)
	}
	if diff := cmp.Diff(w.State().Text(), c.State().Text()); diff != "" {
		t.Fatalf("the clone and its original, given the same faults, differ (-original +clone):\n%s", diff)
	}
	if diff := cmp.Diff(w.Events(), c.Events()); diff != "" {
		t.Fatalf("the clone and its original recorded different events (-original +clone):\n%s", diff)
	}
}

// TestAtTimeFromSnapshotEqualsFullReplay plays the same actions on a world
// with snapshots and one without, and compares every past moment each
// rebuilds: state and events.
func TestAtTimeFromSnapshotEqualsFullReplay(t *testing.T) {
	full := busyWorld(t, cluster.TimelineConfig{}, 9000)
	snap := busyWorld(t, cluster.TimelineConfig{SnapshotEveryMs: 3000}, 9000)
	for _, a := range faults {
		require.NoError(t, full.Do(a))
		require.NoError(t, snap.Do(a))
	}
	require.Greater(t, len(snap.Snapshots()), 5, "snapshots taken")
	if diff := cmp.Diff(full.Events(), snap.Events()); diff != "" {
		t.Fatalf("taking snapshots changed the world's events (-without +with):\n%s", diff)
	}
	for _, ms := range []int64{0, 1, 2999, 3000, 7000, 9000, 9001, 13000, 25000, 33000, 41000, snap.NowMs()} {
		t.Run(fmt.Sprint(ms), func(t *testing.T) {
			a, err := full.AtTime(ms)
			require.NoError(t, err)
			b, err := snap.AtTime(ms)
			require.NoError(t, err)
			if diff := cmp.Diff(a.State().Text(), b.State().Text()); diff != "" {
				t.Fatalf("at %d ms, the state from a snapshot differs from the full replay's (-replay +snapshot):\n%s", ms, diff)
			}
			if diff := cmp.Diff(a.Events(), b.Events()); diff != "" {
				t.Fatalf("at %d ms, the events from a snapshot differ from the full replay's (-replay +snapshot):\n%s", ms, diff)
			}
		})
	}
}

// TestBoundedTimelineForgetsAndStillShowsTheWindow runs a world with a
// 20 s window for two minutes: the history falls off, the counts stay,
// and every moment of the window is the one a full replay shows.
func TestBoundedTimelineForgetsAndStillShowsTheWindow(t *testing.T) {
	tl := cluster.TimelineConfig{SnapshotEveryMs: 5000, KeepMs: 20000}
	bounded := busyWorld(t, tl, 120000)
	full := busyWorld(t, cluster.TimelineConfig{}, 120000)
	// Snapshots come after actions (runs of 700 ms here): the oldest kept
	// is the first at or after 100 s, up to a snapshot interval later.
	if got := bounded.StartMs(); got < 100000-700 || got > 100000+5000+700 {
		t.Fatalf("the timeline of a 2-minute world keeping 20 s starts at %d ms, want within a snapshot interval after 100000", got)
	}
	if n := len(bounded.Snapshots()); n > 6 {
		t.Fatalf("a 20 s window with a snapshot every 5 s keeps %d snapshots, want at most 6", n)
	}
	if first := bounded.Events()[0]; first.TimeMs < bounded.StartMs() {
		t.Fatalf("the oldest event kept (%s) is before the timeline's start %d", first, bounded.StartMs())
	}
	if diff := cmp.Diff(producerCounts(full), producerCounts(bounded)); diff != "" {
		t.Fatalf("forgetting results changed the producers' counts (-full +bounded):\n%s", diff)
	}
	if _, err := bounded.AtTime(bounded.StartMs() - 1); err == nil {
		t.Fatalf("AtTime before the timeline's start %d ms gave a world, want an error", bounded.StartMs())
	}
	for _, ms := range []int64{bounded.StartMs() + 1, 110000, 119999} {
		a, err := full.AtTime(ms)
		require.NoError(t, err)
		b, err := bounded.AtTime(ms)
		require.NoError(t, err)
		if diff := cmp.Diff(a.State().Partitions, b.State().Partitions); diff != "" {
			t.Fatalf("at %d ms the bounded timeline shows other partitions than a full replay (-replay +bounded):\n%s", ms, diff)
		}
	}
}

func producerCounts(w *cluster.World) []string {
	var out []string
	for _, p := range w.State().Producers {
		out = append(out, fmt.Sprintf("%s sent=%d acked=%d failed=%d", p.Name, p.Sent, p.Acked, p.Failed))
	}
	return out
}

// TestThinnedSnapshotsKeepOnePerSpan checks that snapshots older than
// DenseMs keep one per SparseEveryMs, and that a moment between two sparse
// snapshots is still the moment a full replay shows.
func TestThinnedSnapshotsKeepOnePerSpan(t *testing.T) {
	tl := cluster.TimelineConfig{SnapshotEveryMs: 2000, DenseMs: 10000, SparseEveryMs: 10000, KeepMs: 60000}
	w := busyWorld(t, tl, 70000)
	full := busyWorld(t, cluster.TimelineConfig{}, 70000)
	snaps := w.Snapshots()
	dense := w.NowMs() - tl.DenseMs
	buckets := map[int64]int{}
	for _, ms := range snaps {
		if ms < dense {
			buckets[ms/tl.SparseEveryMs]++
		}
	}
	for b, n := range buckets {
		if n > 1 {
			t.Fatalf("%d snapshots older than %d ms in the span starting at %d ms, want one (snapshots %v)", n, dense, b*tl.SparseEveryMs, snaps)
		}
	}
	if len(buckets) < 4 {
		t.Fatalf("only %d sparse snapshots kept of a minute's history (snapshots %v)", len(buckets), snaps)
	}
	ms := snaps[1] + 7300
	a, err := full.AtTime(ms)
	require.NoError(t, err)
	b, err := w.AtTime(ms)
	require.NoError(t, err)
	if diff := cmp.Diff(a.State().Partitions, b.State().Partitions); diff != "" {
		t.Fatalf("at %d ms, between sparse snapshots, the partitions differ from a full replay's (-replay +thinned):\n%s", ms, diff)
	}
}
