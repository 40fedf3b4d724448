package cluster_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/stretchr/testify/require"
)

// leaderBatches reads the batches of partition t-0 on broker 1: each batch's
// records' values, and its size in bytes.
func leaderBatches(t *testing.T, w *cluster.World) (values [][]string, sizes []int) {
	t.Helper()
	fsys, err := w.BrokerFS(1)
	require.NoError(t, err)
	f, err := fsys.Open(cluster.LogDir + "/t-0/" + kafkalog.SegmentFileName(0, kafkalog.LogSuffix))
	require.NoError(t, err)
	defer f.Close()
	size, err := f.Size()
	require.NoError(t, err)
	b := make([]byte, size)
	_, err = f.ReadAt(b, 0)
	require.NoError(t, err)
	var dec kafkalog.Decoder
	var batch kafkalog.RecordBatch
	for pos := 0; pos < len(b); {
		n, err := dec.Decode(b[pos:], &batch)
		require.NoError(t, err)
		var vs []string
		for _, r := range batch.Records {
			vs = append(vs, string(r.Value))
		}
		values, sizes = append(values, vs), append(sizes, n)
		pos += n
	}
	return values, sizes
}

// With linger.ms a producer's records for a partition travel as one batch:
// sent linger.ms after the first, or earlier when batch.size is reached.
func TestProducerLinger(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lingerMs  int64
		batchSize int
		want      [][]string
	}{
		{"no linger: a batch per record", 0, 0, [][]string{{"m0"}, {"m1"}, {"m2"}, {"m3"}, {"m4"}}},
		{"linger: one batch", 50, 0, [][]string{{"m0", "m1", "m2", "m3", "m4"}}},
		// Each record of one byte value, no key, takes 8 bytes after the
		// 61-byte header: 61+8*2 = 77 <= 80, a third would be 85.
		{"batch.size closes batches early", 50, 80, [][]string{{"m0", "m1"}, {"m2", "m3"}, {"m4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 1})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", LingerMs: tc.lingerMs, BatchSize: tc.batchSize}))
			require.NoError(t, w.Deliver(0))
			for i := range 5 {
				require.NoError(t, w.Produce("p", "", fmt.Sprintf("m%d", i), 0))
			}
			require.NoError(t, w.RunFor(500))
			got, _ := leaderBatches(t, w)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("batches in the log (-want +got):\n%s", diff)
			}
			var offsets []int64
			for _, r := range w.Producers()[0].Results() {
				offsets = append(offsets, r.Offset)
			}
			if diff := cmp.Diff([]int64{0, 1, 2, 3, 4}, offsets); diff != "" {
				t.Errorf("acknowledged offsets (-want +got):\n%s", diff)
			}
		})
	}
}

// A producer with a random linger.ms and batch.size sends records of random
// sizes at random moments, while the leader's broker may be killed and
// restarted: every record is acknowledged and in the log at its offset, a batch
// of more than one record keeps to batch.size, and the records of a batch
// were produced within linger.ms of its first, unless the broker was down
// meanwhile: then the records wait behind the batch it could not take, and
// gather in batches up to batch.size, as in Kafka's accumulator.
func TestProducerLingerRandom(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 0))
		lingerMs := int64(rnd.IntN(200) + 1)
		batchSize := 100 + rnd.IntN(400)
		w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 1})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", LingerMs: lingerMs, BatchSize: batchSize}))
		require.NoError(t, w.Deliver(0))
		producedAt := map[string]int64{}
		var down [][2]int64 // when the broker was killed, and when its records could go again
		for i := range 60 {
			v := fmt.Sprintf("v%d-%s", i, strings.Repeat("x", rnd.IntN(60)))
			producedAt[v] = w.NowMs()
			require.NoError(t, w.Produce("p", "", v, 0))
			require.NoError(t, w.RunFor(int64(rnd.IntN(4))*10))
			if rnd.IntN(30) == 0 {
				killed := w.NowMs()
				require.NoError(t, w.Kill(1))
				require.NoError(t, w.RunFor(200))
				require.NoError(t, w.Start(1))
				down = append(down, [2]int64{killed, w.NowMs() + cluster.DefaultRetryBackoffMaxMs})
			}
		}
		require.NoError(t, w.RunFor(40000)) // past request.timeout.ms: the batches lost to a kill are sent again
		batches, sizes := leaderBatches(t, w)
		var log []string
		for k, b := range batches {
			log = append(log, b...)
			if len(b) > 1 && sizes[k] > batchSize {
				t.Errorf("seed %d: batch %d of %d records is %d bytes, batch.size %d (replay: go test ./cluster -run TestProducerLingerRandom)", seed, k, len(b), sizes[k], batchSize)
			}
			if len(b) == 0 {
				continue
			}
			first, last := producedAt[b[0]], producedAt[b[len(b)-1]]
			waited := slices.ContainsFunc(down, func(d [2]int64) bool { return first <= d[1] && last >= d[0] })
			if last-first > lingerMs && !waited {
				t.Errorf("seed %d: batch %d holds records produced %d ms apart, linger.ms %d", seed, k, last-first, lingerMs)
			}
		}
		for _, r := range w.Producers()[0].Results() {
			if !r.Acked {
				t.Errorf("seed %d: %.12s not acknowledged: %+v", seed, r.Value, r)
				continue
			}
			if r.Offset < 0 || r.Offset >= int64(len(log)) || log[r.Offset] != r.Value {
				t.Errorf("seed %d: %.12s acknowledged at offset %d, not there in the log of %d records", seed, r.Value, r.Offset, len(log))
			}
		}
	}
}
