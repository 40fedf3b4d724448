package cluster_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/stretchr/testify/require"
)

// storedRecord is one record as a broker's segment files hold it.
type storedRecord struct {
	Offset      int64
	Value       string
	TimestampMs int64
	// BatchSize is the size of its batch in bytes, BatchRecords its records.
	BatchSize, BatchRecords int
}

// storedRecords decodes every segment of partition t-0 on broker id, in offset order.
func storedRecords(t *testing.T, w *cluster.World, id int32) []storedRecord {
	t.Helper()
	var out []storedRecord
	eachStoredBatch(t, w, id, "t-0", func(batch *kafkalog.RecordBatch, size int) {
		for i := range batch.Records {
			r := &batch.Records[i]
			out = append(out, storedRecord{Offset: batch.Offset(r), Value: string(r.Value),
				TimestampMs: batch.BaseTimestamp + r.TimestampDelta, BatchSize: size, BatchRecords: len(batch.Records)})
		}
	})
	return out
}

// A produce with a timestamp set by the application (a backfill) stores the
// record with that timestamp, in a batch whose deltas count from its first
// record: negative, and beyond an int32, too.
func TestProduceTimestamp(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", LingerMs: 50}))
	require.NoError(t, w.Deliver(0))
	stamps := []int64{1714521600000, 1714694400000, 1713398400000, 1711843200000, 0}
	for i, ts := range stamps {
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: fmt.Sprintf("o%d", i), Partition: -1, TimestampMs: &ts}))
	}
	require.NoError(t, w.RunFor(500))
	var want []storedRecord
	for i, ts := range stamps {
		want = append(want, storedRecord{Offset: int64(i), Value: fmt.Sprintf("o%d", i), TimestampMs: ts})
	}
	got := storedRecords(t, w, 1)
	for i := range got {
		got[i].BatchSize, got[i].BatchRecords = 0, 0
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records in the log (-want +got):\n%s", diff)
	}

	neg := int64(-5)
	err = w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: "bad", Partition: -1, TimestampMs: &neg})
	if !errors.Is(err, cluster.ErrInvalidConfig) || !strings.Contains(err.Error(), "Invalid timestamp: -5") {
		t.Errorf("a negative timestamp: got %v, want ErrInvalidConfig saying Invalid timestamp: -5", err)
	}
}

// A lingering producer sends records stamped at random (some by the
// application, days or weeks apart and out of order, some at the moment they
// are produced) while the leader may be killed: every replica stores every
// acknowledged record at its offset with the timestamp it was sent with, and
// a batch of more than one record keeps to batch.size, its timestamp deltas
// counted.
func TestProduceTimestampRandom(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 0))
		lingerMs := int64(rnd.IntN(100) + 1)
		batchSize := 150 + rnd.IntN(400)
		w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", LingerMs: lingerMs, BatchSize: batchSize}))
		require.NoError(t, w.Deliver(0))
		sentTs := map[string]int64{}
		for i := range 50 {
			v := fmt.Sprintf("v%d", i)
			a := cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: v, Partition: -1}
			if rnd.IntN(3) > 0 {
				ts := int64(1714521600000) + rnd.Int64N(90*24*3600*1000) - 45*24*3600*1000
				a.TimestampMs = &ts
				sentTs[v] = ts
			}
			require.NoError(t, w.Do(a))
			require.NoError(t, w.RunFor(int64(rnd.IntN(4))*10))
			if rnd.IntN(25) == 0 {
				leader := w.PartitionLeader("t", 0)
				if leader > 0 {
					require.NoError(t, w.Kill(leader))
					require.NoError(t, w.RunFor(200))
					require.NoError(t, w.Start(leader))
				}
			}
		}
		require.NoError(t, w.RunFor(40000))
		replay := fmt.Sprintf("(seed %d; replay: go test ./cluster -run TestProduceTimestampRandom)", seed)
		for id := int32(1); id <= 3; id++ {
			stored := storedRecords(t, w, id)
			at := map[int64]storedRecord{}
			for _, s := range stored {
				at[s.Offset] = s
				if s.BatchRecords > 1 && s.BatchSize > batchSize {
					t.Errorf("broker %d: offset %d in a batch of %d records and %d bytes, batch.size %d %s", id, s.Offset, s.BatchRecords, s.BatchSize, batchSize, replay)
				}
			}
			for _, r := range w.Producers()[0].Results() {
				if !r.Acked {
					t.Errorf("%s not acknowledged: %s %s", r.Value, r.Error, replay)
					continue
				}
				s, ok := at[r.Offset]
				if !ok || s.Value != r.Value {
					t.Errorf("broker %d: %s acknowledged at offset %d, which holds %+v %s", id, r.Value, r.Offset, s, replay)
					continue
				}
				if ts, ok := sentTs[r.Value]; ok && s.TimestampMs != ts {
					t.Errorf("broker %d: %s stored with timestamp %d, sent with %d %s", id, r.Value, s.TimestampMs, ts, replay)
				}
			}
		}
	}
}

// A built-in producer's record stamped further from the clock than the
// topic's message.timestamp.before.max.ms or after.max.ms fails with
// INVALID_TIMESTAMP and is not stored; one within the bounds, or stamped
// now, is.
func TestProduceTimestampBounds(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 2, Brokers: 1})
	require.NoError(t, err)
	cfg := cluster.DefaultLogConfig()
	cfg.MessageTimestampBeforeMaxMs, cfg.MessageTimestampAfterMaxMs = 1000, 2000
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1, Config: &cfg}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t"}))
	require.NoError(t, w.RunFor(5000))
	now := w.NowMs()
	for i, off := range []int64{-1001, -1000, 2000, 2001} {
		ts := now + off
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: fmt.Sprintf("o%d", i), Partition: -1, TimestampMs: &ts}))
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: "o4", Partition: -1}))
	require.NoError(t, w.RunFor(1000))
	var errs []string
	for _, r := range w.Producers()[0].Results() {
		errs = append(errs, r.Error)
	}
	require.Equal(t, []string{"INVALID_TIMESTAMP", "", "", "INVALID_TIMESTAMP", ""}, errs)
	var values []string
	for _, r := range storedRecords(t, w, 1) {
		values = append(values, r.Value)
	}
	require.Equal(t, []string{"o1", "o2", "o4"}, values)
}
