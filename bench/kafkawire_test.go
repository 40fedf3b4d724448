package bench

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/kafkawire/kafkawiretest"
)

var kafkawireSeed = flag.Int64("kafkawire.seed", 0, "seed of TestKafkawireKgo's workload (0: from the clock)")

// TestKafkawireKgo: franz-go's client (v1.22.3), bootstrapped on one broker of
// a kafkawire server over the in-memory backend, finds the three brokers,
// produces idempotently (InitProducerId, acks=all) to the leader and consumes
// back every record in order; the leader's log holds valid batches v2 with
// offsets assigned by the server.
func TestKafkawireKgo(t *testing.T) {
	seed := time.Now().UnixNano()
	if testing.Short() {
		seed = 1
	}
	if *kafkawireSeed != 0 {
		seed = *kafkawireSeed
	}
	t.Logf("seed %d (replay: go test -run TestKafkawireKgo -kafkawire.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))

	srv, mem, err := kafkawiretest.Serve(func(e kafkawire.Event) { t.Log(e) })
	require.NoError(t, err)
	defer srv.Close()
	mem.SetLeader(2)
	bootstrap := srv.Addr(3).String()

	const topic = "orders"
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(bootstrap),
		kgo.ClientID("kafkawire-test"),
		kgo.DefaultProduceTopic(topic),
		kgo.AllowAutoTopicCreation(),
		kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(200*time.Millisecond),
		kgo.ProducerLinger(0),
		kgo.RetryTimeout(10*time.Second),
	)
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	n := 20 + rng.IntN(200)
	var want []string
	for i := range n {
		v := fmt.Sprintf("record %d %s", i, string(make([]byte, rng.IntN(300))))
		want = append(want, v)
		if rng.IntN(4) == 0 {
			require.NoError(t, cl.ProduceSync(ctx, &kgo.Record{Key: []byte(strconv.Itoa(i)), Value: []byte(v)}).FirstErr())
		} else {
			cl.Produce(ctx, &kgo.Record{Key: []byte(strconv.Itoa(i)), Value: []byte(v)}, func(_ *kgo.Record, err error) {
				if err != nil {
					t.Errorf("produce: %v", err)
				}
			})
		}
	}
	require.NoError(t, cl.Flush(ctx))

	var got []string
	var offsets []int64
	for len(got) < n && ctx.Err() == nil {
		fs := cl.PollFetches(ctx)
		for _, e := range fs.Errors() {
			if e.Err != context.DeadlineExceeded {
				t.Fatalf("fetch %s-%d: %v", e.Topic, e.Partition, e.Err)
			}
		}
		fs.EachRecord(func(r *kgo.Record) {
			got = append(got, string(r.Value))
			offsets = append(offsets, r.Offset)
		})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("consumed records (-want +got):\n%s", diff)
	}
	for i, o := range offsets {
		if o != int64(i) {
			t.Fatalf("record %d has offset %d", i, o)
		}
	}

	// The log is batches v2 with the producer id InitProducerId gave, leader
	// epoch 1 (SetLeader bumped it), offsets without gap.
	log := mem.Log(topic)
	var next int64
	it := kafkalog.NewBatchIter(log, 0)
	for it.Next() {
		e := it.Entry()
		require.NoError(t, e.Check())
		h := e.Header
		require.Equal(t, next, h.BaseOffset, "base offset")
		require.Equal(t, int32(1), h.PartitionLeaderEpoch, "leader epoch")
		require.GreaterOrEqual(t, h.ProducerID, int64(1000), "idempotent producer id")
		next = h.NextOffset()
	}
	require.NoError(t, it.Err())
	require.Equal(t, int64(n), next)

	counts := srv.Counts()
	require.Positive(t, counts.ByClient["kafkawire-test"], "kgo's connections counted")
	require.Positive(t, counts.ByBroker[2], "the leader has connections")
}
