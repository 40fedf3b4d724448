package cluster_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/stretchr/testify/require"
)

// fetchCounters are what a fetch-counters run shows: the broker's counters and
// what the group processed.
type fetchCounters struct {
	Reads, Scanned, ScannedBytes, LastFetch, FirstBatch int64
	Processed, Duplicates                               int
}

// fetchRun produces records in batches of random sizes to a one-broker topic with
// a small segment.bytes and index.interval.bytes, while a group reads them a few a
// poll, with the lookup parts p, and returns the counters.
func fetchRun(t *testing.T, seed uint64, p kafkalog.Parts) fetchCounters {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	cfg := kafkalog.DefaultConfig()
	cfg.SegmentBytes = int64(2000 + rng.IntN(4000))
	cfg.IndexIntervalBytes = int64(100 + rng.IntN(900))
	w, err := cluster.New(cluster.Config{Brokers: 1, Seed: seed, Parts: cluster.Parts{Log: p}})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "events", Partitions: 1, ReplicationFactor: 1, Config: &cfg}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "events", LingerMs: 5, BatchSize: 100 + rng.IntN(600)}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "g", Topics: []string{"events"}, AutoOffsetReset: "earliest",
		MaxPollRecords: 1 + rng.IntN(9), PollIntervalMs: 50}))
	for round := range 3 + rng.IntN(4) {
		for i := range 20 + rng.IntN(200) {
			require.NoError(t, w.Produce("p", "", fmt.Sprintf("v%d-%d", round, i), 0))
		}
		require.NoError(t, w.RunFor(int64(500+rng.IntN(3000))))
	}
	require.NoError(t, w.RunFor(20000))
	st := w.State()
	b := st.Brokers[0]
	c := st.Consumers[0]
	return fetchCounters{b.FetchReads, b.FetchScannedBatches, b.FetchScannedBytes, b.LastFetchOffset, b.LastFetchFirstBatch, c.Processed, c.Duplicates}
}

// A group reading a topic leaves the same counters whether its fetches come
// from the mirror (the world looks their offsets up in the log) or from reads
// by a lookup part that answers as Kafka does; a lookup that answers the start
// of the segment hands out the same records after scans that walk further.
func TestFetchCountersFollowTheLookup(t *testing.T) {
	sameLookup := func(index []byte, entries int, base, target int64) (int64, int32, bool) {
		off, pos := base, int32(0)
		for i := range entries {
			if o := base + int64(binary.BigEndian.Uint32(index[8*i:])); o <= target {
				off, pos = o, int32(binary.BigEndian.Uint32(index[8*i+4:]))
			}
		}
		return off, pos, true
	}
	fromStart := func(_ []byte, _ int, base, _ int64) (int64, int32, bool) { return base, 0, true }
	for seed := uint64(1); seed <= 3; seed++ {
		ref := fetchRun(t, seed, kafkalog.Parts{})
		same := fetchRun(t, seed, kafkalog.Parts{LookupIndex: sameLookup})
		early := fetchRun(t, seed, kafkalog.Parts{LookupIndex: fromStart})
		if diff := cmp.Diff(ref, same); diff != "" {
			t.Errorf("seed %d: a lookup like the reference's (-mirror +part):\n%s\nreplay: go test ./cluster -run TestFetchCountersFollowTheLookup", seed, diff)
		}
		if ref.Reads == 0 || ref.Processed == 0 {
			t.Errorf("seed %d: the group fetched nothing: %+v", seed, ref)
		}
		want := ref
		want.Scanned, want.ScannedBytes = early.Scanned, early.ScannedBytes
		if diff := cmp.Diff(want, early); diff != "" || early.ScannedBytes <= ref.ScannedBytes {
			t.Errorf("seed %d: a lookup that answers position 0 scanned %d bytes, the reference %d; the rest (-want +got):\n%s",
				seed, early.ScannedBytes, ref.ScannedBytes, diff)
		}
	}
}
