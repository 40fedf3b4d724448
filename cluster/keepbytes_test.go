package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestTimelineKeepBytes: a client producing 20 KB batches as fast as it can
// (all within a few simulated seconds, far under SnapshotEveryMs) makes the
// world snapshot early and forget its oldest history, so that the requests
// kept to replay stay within KeepBytes; every moment still on the timeline
// replays to what the world showed then.
func TestTimelineKeepBytes(t *testing.T) {
	const keep = 400 << 10
	w := floodWorld(t, cluster.Config{Seed: 3, Timeline: cluster.TimelineConfig{SnapshotEveryMs: 60_000, KeepBytes: keep}}, 500)
	value := floodValue()
	seen := map[int64]string{}
	for i := range 120 {
		var b kafkalog.RecordBatch
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
		value[0] = byte(i)
		b.AppendRecord(0, 1_700_000_000_000, nil, value)
		req := produceReq(1, b.AppendTo(nil))
		_, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "flood", Broker: 1, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
		require.NoError(t, err)
		require.NoError(t, w.RunFor(20))
		seen[w.NowMs()] = w.State().Text()
		require.NoError(t, w.RunFor(5)) // the next request comes later than the moment seen
	}
	var kept int64
	for _, a := range w.Actions() {
		if a.External != nil {
			kept += int64(len(a.External.Body))
		}
	}
	require.LessOrEqual(t, kept, int64(keep+keep/4+30<<10), "request bytes kept to replay")
	require.Greater(t, w.StartMs(), int64(500), "the oldest history fell off")
	require.GreaterOrEqual(t, len(w.Snapshots()), 2, "snapshots taken early")
	for ms, want := range seen {
		if ms < w.StartMs() {
			continue
		}
		past, err := w.AtTime(ms)
		require.NoError(t, err, "t=%d", ms)
		if got := past.State().Text(); got != want {
			t.Fatalf("the world at t=%d replayed differs from what it showed then (%d bytes of state, %d)", ms, len(got), len(want))
		}
	}
}

// floodWorld is a modern world of cfg (min.insync.replicas 2) with topic t
// (one partition on brokers 1, 2, 3), run for ms.
func floodWorld(t *testing.T, cfg cluster.Config, ms int64) *cluster.World {
	t.Helper()
	cfg.MinInsyncReplicas, cfg.Rules, cfg.ClockStartMs = 2, replica.Modern, clientClockMs
	w, err := cluster.New(cfg)
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(ms))
	return w
}

// floodValue is a 20 KiB value that compresses little.
func floodValue() []byte {
	value := make([]byte, 20<<10)
	for i := range value {
		value[i] = byte(i*131 + i/7)
	}
	return value
}
