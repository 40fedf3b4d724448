//go:build !js

package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestWireManyPartitionsReadOnce: a real client (franz-go) creates a
// topic of 2,000 partitions of three replicas, another produces records
// across them, and a consumer, which asks for a fetch session at each
// full fetch (KIP-227: the simulated brokers answer SessionID 0, no
// session, and it goes on with full fetches) while the brokers replicate
// the topic through their own sessions, reads every record exactly once.
func TestWireManyPartitionsReadOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,000-partition world")
	}
	live, err := NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ks, err := StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	go live.RunClock(ctx, UpdateInterval, nil)
	seeds := kgo.SeedBrokers(ks.Addr(1).String(), ks.Addr(2).String(), ks.Addr(3).String())

	admin, err := kgo.NewClient(seeds)
	require.NoError(t, err)
	defer admin.Close()
	created, err := kadm.NewClient(admin).CreateTopic(ctx, 2000, 3, nil, "wide")
	require.NoError(t, err)
	require.NoError(t, created.Err, "the 2,000-partition topic is refused")

	const n = 400
	p, err := kgo.NewClient(seeds, kgo.DefaultProduceTopic("wide"))
	require.NoError(t, err)
	defer p.Close()
	for i := range n {
		// stamped at the world's start: its clock begins in 1970
		p.Produce(ctx, &kgo.Record{Key: []byte(fmt.Sprintf("k%d", i)), Value: []byte(fmt.Sprint(i)), Timestamp: time.UnixMilli(1)}, nil)
	}
	require.NoError(t, p.Flush(ctx))

	c, err := kgo.NewClient(seeds, kgo.ConsumeTopics("wide"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	require.NoError(t, err)
	defer c.Close()
	seen := map[string]int{}
	for len(seen) < n {
		fetches := c.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "read %d of %d records", len(seen), n)
		fetches.EachError(func(topic string, partition int32, err error) {
			t.Fatalf("%s-%d: %v", topic, partition, err)
		})
		fetches.EachRecord(func(r *kgo.Record) { seen[string(r.Value)]++ })
	}
	for i := range n {
		require.Equal(t, 1, seen[fmt.Sprint(i)], "record %d read %d times", i, seen[fmt.Sprint(i)])
	}
	require.Len(t, seen, n)
}
