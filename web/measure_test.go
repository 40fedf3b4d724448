package web

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestMeasureHour measures what an hour of simulated time costs the server:
// the default world advanced in 100 ms steps as the server's ticker does,
// then the heap, the size and cost of one update, and the cost of showing a
// moment of the timeline. It takes a minute, so it runs only with
// KAFKALIVE_MEASURE=1.
func TestMeasureHour(t *testing.T) {
	if os.Getenv("KAFKALIVE_MEASURE") == "" {
		t.Skip("set KAFKALIVE_MEASURE=1 to measure an hour of simulated time")
	}
	live, err := NewLive()
	require.NoError(t, err)
	start := time.Now()
	for ms := int64(0); ms < 3_600_000; ms += 100 {
		require.NoError(t, live.Advance(100))
		if ms%600_000 == 0 {
			t.Logf("t=%d min: heap %.1f MiB", ms/60_000, heapMiB())
		}
	}
	t.Logf("one simulated hour in %v", time.Since(start))
	t.Logf("after an hour: heap %.1f MiB, %d events, %d actions, %d snapshots, timeline from %d s", heapMiB(), len(live.w.Events()), len(live.w.Actions()), len(live.w.Snapshots()), live.w.StartMs()/1000)
	start = time.Now()
	_ = live.w.Clone()
	t.Logf("one clone of the world: %v", time.Since(start))

	const n = 50
	start = time.Now()
	var size int
	for i := 0; i < n; i++ {
		v, err := live.View(Focus{Topic: "orders"}, nil)
		require.NoError(t, err)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		size = len(b)
	}
	per := time.Since(start) / n
	t.Logf("one update: %d bytes, built and encoded in %v (at most %.0f updates/s on one core)", size, per, float64(time.Second)/float64(per))

	// The oldest moment kept, one just before the next sparse snapshot (the
	// longest replay), and one in the dense last minute.
	for _, at := range []int64{live.w.StartMs(), live.w.StartMs() + 119_900, 3_599_000} {
		start = time.Now()
		_, err := live.View(Focus{Topic: "orders"}, &at)
		require.NoError(t, err)
		t.Logf("the timeline at %d s: rebuilt in %v", at/1000, time.Since(start))
	}
	t.Logf("heap with one past world cached: %.1f MiB", heapMiB())
	runtime.KeepAlive(live)
}

func heapMiB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// BenchmarkUpdate measures building and encoding one update of the default
// world after ten simulated minutes.
func BenchmarkUpdate(b *testing.B) {
	live, err := NewLive()
	require.NoError(b, err)
	for ms := 0; ms < 600_000; ms += 100 {
		require.NoError(b, live.Advance(100))
	}
	b.ResetTimer()
	for b.Loop() {
		v, err := live.View(Focus{Topic: "orders"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		buf, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(buf)))
	}
}

// BigTopicPartitions is the partition count of the big topic the tests of
// many partitions make: two thousand, or as many as the world holds
// beside the default world's topics.
func bigTopicPartitions() int {
	return min(2000, cluster.MaxPartitions-10)
}

// bigLive is the default world with a topic of n partitions (replication
// factor 3) and a consumer group reading it, run for ten simulated
// seconds.
func bigLive(t testing.TB, n int) *Live {
	t.Helper()
	live, err := NewLive()
	require.NoError(t, err)
	term := NewTerminal(live)
	for _, line := range []string{fmt.Sprintf("kafka-topics --create --topic big --partitions %d --replication-factor 3", n),
		"add-consumer wide-1 --group wide --topics big", "add-consumer wide-2 --group wide --topics big"} {
		var out strings.Builder
		require.NoError(t, term.Exec(line, nil, &out), "%s: %s", line, out.String())
	}
	require.NoError(t, live.Advance(10_000))
	return live
}
