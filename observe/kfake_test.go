package observe_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kafkalive/kafkalive/observe"
)

// TestObserveKfake: the observer polls franz-go's kfake, another
// implementation of Kafka's protocol, without an error but the one
// kfake must give (it has no metadata quorum: DescribeQuorum is not
// served, and the sample's quorum is not observed), sees its brokers,
// its topic's partitions with their high watermarks and log ends, and a
// group with its committed offsets and lag; every request it wrote is
// read-only (kfake's own hook on every request it reads).
func TestObserveKfake(t *testing.T) {
	var mu sync.Mutex
	seen := map[int16]bool{}
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(3, "events"))
	require.NoError(t, err)
	defer c.Close()
	for key := int16(0); key <= 100; key++ {
		c.ControlKey(key, func(req kmsg.Request) (kmsg.Response, error, bool) {
			mu.Lock()
			seen[req.Key()] = true
			mu.Unlock()
			c.KeepControl()
			return nil, nil, false
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.DefaultProduceTopic("events"))
	require.NoError(t, err)
	for i := range 30 {
		require.NoError(t, p.ProduceSync(ctx, &kgo.Record{Key: []byte(strconv.Itoa(i % 7)), Value: []byte("x")}).FirstErr())
	}
	g, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("events"), kgo.ConsumerGroup("g1"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	require.NoError(t, err)
	for n := 0; n < 10; {
		n += g.PollFetches(ctx).NumRecords()
	}
	require.NoError(t, g.CommitUncommittedOffsets(ctx))
	// the group stays (its committed offsets) when its member is gone
	g.CloseAllowingRebalance()
	p.Close()
	// only the observer from here on
	mu.Lock()
	clear(seen)
	mu.Unlock()

	o, err := observe.New(observe.Config{Bootstrap: c.ListenAddrs(), Interval: 2 * time.Second})
	require.NoError(t, err)
	defer o.Close()
	o.Poll(ctx)
	s := o.Poll(ctx) // the second: kfake's group answers settle
	var unanswered []string
	for _, u := range s.Unanswered {
		if !strings.HasPrefix(u, "DescribeQuorum") {
			unanswered = append(unanswered, u)
		}
	}
	require.Empty(t, unanswered)
	require.Nil(t, s.Quorum, "kfake has no quorum to describe")
	require.Len(t, s.Brokers, 3)
	var hw int64
	for i := range int32(3) {
		pt := s.Partition("events", i)
		require.NotNil(t, pt)
		require.GreaterOrEqual(t, pt.HighWatermark, int64(0))
		hw += pt.HighWatermark
		for _, l := range pt.Logs {
			require.GreaterOrEqual(t, l.LogEndOffset, pt.HighWatermark, "events-%d at broker %d", i, l.Broker)
		}
	}
	require.Equal(t, int64(30), hw)
	require.Len(t, s.Groups, 1)
	require.NotEmpty(t, s.Groups[0].Offsets)
	for _, off := range s.Groups[0].Offsets {
		require.Equal(t, off.LogEndOffset-off.Committed, off.Lag)
	}
	mu.Lock()
	defer mu.Unlock()
	var keys []int16
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	require.Contains(t, keys, int16(2), "kfake saw the observer's ListOffsets")
	for _, k := range keys {
		require.True(t, observe.IsReadOnly(k), "the observer sent %s", kmsg.NameForKey(k))
	}
}

// TestObserverRunPollsUntilDone: Run polls every interval, each sample
// waking Changed's waiters and kept by the timeline, until its context
// is done.
func TestObserverRunPollsUntilDone(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"))
	require.NoError(t, err)
	defer c.Close()
	o, err := observe.New(observe.Config{Bootstrap: c.ListenAddrs(), Interval: 50 * time.Millisecond})
	require.NoError(t, err)
	defer o.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	changed := o.Changed()
	go func() { defer close(done); o.Run(ctx) }()
	for range 3 {
		select {
		case <-changed:
			changed = o.Changed()
		case <-time.After(10 * time.Second):
			t.Fatal("no sample within 10 s")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return once its context was done")
	}
	o.Look(func(tl *observe.Timeline) {
		require.GreaterOrEqual(t, tl.Len(), 3)
		require.Equal(t, observe.EventStart, tl.Events()[0].Kind)
	})
	require.NotNil(t, o.Latest().Partition("t", 0))
}

// TestObserveAClusterOlderThanDescribeTopicPartitions: a cluster that does
// not serve DescribeTopicPartitions (Kafka 3.6: franz-go's kfake held to
// its versions) is observed all the same: its partitions are Metadata's,
// their eligible leader replicas not observed (ELRListed false, and the
// poll says why), never shown as empty.
func TestObserveAClusterOlderThanDescribeTopicPartitions(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(4, "events"), kfake.MaxVersions(kversion.V3_6_0()))
	require.NoError(t, err)
	defer c.Close()
	o, err := observe.New(observe.Config{Bootstrap: c.ListenAddrs(), Interval: 2 * time.Second})
	require.NoError(t, err)
	defer o.Close()
	s := o.Poll(context.Background())
	require.False(t, s.ELRListed)
	require.Len(t, s.Partitions, 4)
	var why []string
	for _, u := range s.Unanswered {
		if strings.HasPrefix(u, "DescribeTopicPartitions") {
			why = append(why, u)
		}
	}
	require.Len(t, why, 1, "unanswered: %q", s.Unanswered)
	require.Contains(t, why[0], "not observed")
	for _, p := range s.Partitions {
		require.Nil(t, p.ELR)
		require.GreaterOrEqual(t, p.Leader, int32(0))
	}
	_, others := o.Sent()
	require.Empty(t, others)
}
