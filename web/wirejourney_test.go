//go:build !js

package web

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestJourneyLinksTheWire: while the wire panel watches every client, a
// real client's record produced to the world and read back by another
// has a journey that links to the Produce that wrote it (the offsets its
// response gave) and the Fetch that read it, each the panel's entry
// (its number, API, client, broker, correlation id); a record the wire
// did not see carried (produced before the panel asked) links to none.
func TestJourneyLinksTheWire(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ks, err := StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	go live.RunClock(ctx, UpdateInterval, nil)
	wire := wireOf(live)
	produce := func(value string) *kgo.Record {
		t.Helper()
		p, err := kgo.NewClient(kgo.SeedBrokers(ks.Addr(1).String()), kgo.ClientID("writer"), kgo.DefaultProduceTopic("orders"),
			kgo.RecordPartitioner(kgo.ManualPartitioner()))
		require.NoError(t, err)
		defer p.Close()
		// stamped at the world's start: its clock begins in 1970, and
		// Kafka 4 refuses a timestamp more than an hour after it
		r, err := p.ProduceSync(ctx, &kgo.Record{Value: []byte(value), Partition: 2, Timestamp: time.UnixMilli(1)}).First()
		require.NoError(t, err)
		return r
	}
	unseen := produce("before-the-panel")
	wire.View(WireQuery{}) // the panel opens: every client watched
	seen := produce("while-watched")
	c, err := kgo.NewClient(kgo.SeedBrokers(ks.Addr(1).String()), kgo.ClientID("reader"),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"orders": {2: kgo.NewOffset().At(seen.Offset)}}))
	require.NoError(t, err)
	defer c.Close()
	fetched := c.PollFetches(ctx)
	require.NoError(t, fetched.Err())
	require.NotZero(t, fetched.NumRecords())

	u, err := live.Update(Focus{Topic: "orders", Partition: 2, Offset: seen.Offset, Value: "while-watched"}, nil)
	require.NoError(t, err)
	require.NotNil(t, u.Journey)
	var apis []string
	for _, x := range u.Journey.Wire {
		apis = append(apis, x.API+" "+x.Client)
		require.LessOrEqual(t, x.First, seen.Offset)
		require.GreaterOrEqual(t, x.Last, seen.Offset)
		kept := wire.View(WireQuery{From: x.Seq, Limit: 1}).Exchanges
		require.Len(t, kept, 1)
		require.Equal(t, [3]any{x.API, x.Client, x.Correlation}, [3]any{kept[0].API, kept[0].Client, kept[0].Correlation}, "the link names the panel's entry")
	}
	require.Contains(t, apis, "Produce writer")
	require.Contains(t, apis, "Fetch reader")

	u, err = live.Update(Focus{Topic: "orders", Partition: 2, Offset: unseen.Offset, Value: "before-the-panel"}, nil)
	require.NoError(t, err)
	require.NotNil(t, u.Journey)
	for _, x := range u.Journey.Wire {
		require.NotEqual(t, "Produce", x.API, "a Produce the wire did not record is linked: %+v", x)
	}
}
