package cluster_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestCleanerUnderRandomDamage damages, while broker 1 is down, random
// bytes (flipped or zeroed) of the segments of some partitions of a
// compacted topic, then starts it: whatever the damage, a start that
// succeeds leaves a broker that keeps running (no internal error); its
// cleaner marks uncleanable only damaged partitions, and still cleans the
// undamaged one (c-0), as Kafka 3.7's LogCleaner goes on after marking a
// partition (CleanerThread.tryCleanFilthiestLog); the broker's state lists
// the partitions marked. Replay: the failing
// draw's seed, with go test ./cluster -run TestCleanerUnderRandomDamage
// -rapid.seed=N.
func TestCleanerUnderRandomDamage(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := kafkalog.DefaultConfig()
		cfg.CleanupPolicy, cfg.SegmentBytes, cfg.MinCleanableDirtyRatio = kafkalog.CleanupPolicyCompact, 1500, 0.01
		cfg.IndexIntervalBytes = 400 // entries inside segments: damage before the last is not checked at a clean start
		w, err := cluster.New(cluster.Config{Seed: rapid.Uint64().Draw(rt, "seed"), MinInsyncReplicas: 1, Rules: replica.Modern})
		require.NoError(rt, err)
		require.NoError(rt, w.CreateTopic(cluster.TopicSpec{Name: "c", Assignment: [][]int32{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, Config: &cfg}))
		require.NoError(rt, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "c", Acks: "all"}))
		require.NoError(rt, w.RunFor(500))
		for i := range 3 * 12 {
			key := fmt.Sprintf("k%d", rapid.IntRange(0, 4).Draw(rt, "key"))
			require.NoError(rt, w.Produce("p", key, strings.Repeat(fmt.Sprint(i%10), 150), int32(i%3)))
			require.NoError(rt, w.RunFor(50))
		}
		require.NoError(rt, w.RunFor(2000))
		require.NoError(rt, w.Stop(1))
		require.NoError(rt, w.RunFor(1000))

		damaged := map[int32]bool{}
		heads := map[int32][]int64{} // where the batches of each first segment began
		for p := int32(1); p <= 2; p++ {
			heads[p] = batchPositions(rt, w, 1, fmt.Sprintf("c-%d/00000000000000000000.log", p))
		}
		for range rapid.IntRange(1, 3).Draw(rt, "damages") {
			p := int32(rapid.IntRange(1, 2).Draw(rt, "partition")) // c-0 stays whole
			if damageSegment(rt, w, p, heads[p]) {
				damaged[p] = true
			}
		}
		require.NoError(rt, w.Start(1))
		if w.StartFailure(1) != "" {
			return // the damage fails the start: not the cleaner's business
		}
		from := len(w.Events())
		require.NoError(rt, w.RunFor(20_000))

		for _, ie := range w.InternalErrors() {
			rt.Fatalf("internal error at t=%d: %s", ie.TimeMs, ie.Error)
		}
		require.Equal(rt, "running", w.Brokers()[0].State, "broker 1 keeps running")
		cleaned0 := false
		var marked []string
		for _, e := range w.Events()[from:] {
			if e.Broker != 1 || e.Topic != "c" {
				continue
			}
			if strings.Contains(e.Text, "as uncleanable") {
				if !damaged[e.Partition] {
					rt.Fatalf("undamaged c-%d marked uncleanable: %s", e.Partition, e.Text)
				}
				marked = append(marked, fmt.Sprintf("c-%d", e.Partition))
			}
			cleaned0 = cleaned0 || e.Partition == 0 && strings.HasPrefix(e.Text, "cleaner compacted")
		}
		require.True(rt, cleaned0, "broker 1's cleaner still cleans c-0")
		require.Equal(rt, marked, w.Brokers()[0].UncleanablePartitions, "the partitions the state lists as uncleanable are those marked, once each")

	})
}

// damageSegment flips or zeroes bytes of the first segment of broker 1's
// c-p (down), anywhere or in a batch header (heads: where they begin), and
// reports whether it did.
func damageSegment(rt *rapid.T, w *cluster.World, p int32, heads []int64) bool {
	name := fmt.Sprintf("c-%d/00000000000000000000.log", p)
	fsys, err := w.BrokerFS(1)
	require.NoError(rt, err)
	st, err := fsys.Stat(cluster.LogDir + "/" + name)
	require.NoError(rt, err)
	if st.Size() == 0 {
		return false
	}
	at := rapid.Int64Range(0, st.Size()-1).Draw(rt, "at")
	if len(heads) > 0 && rapid.Bool().Draw(rt, "in a header") { // where damage stops the cleaner
		at = min(rapid.SampledFrom(heads).Draw(rt, "batch")+int64(rapid.IntRange(0, kafkalog.BatchHeaderLen).Draw(rt, "header byte")), st.Size()-1)
	}
	if rapid.Bool().Draw(rt, "flip") {
		require.NoError(rt, w.Corrupt(1, name, at, 0, true))
	} else {
		n := min(int64(rapid.IntRange(1, 8).Draw(rt, "zeroed")), st.Size()-at)
		require.NoError(rt, w.Corrupt(1, name, at, int(n), false))
	}
	return true
}
