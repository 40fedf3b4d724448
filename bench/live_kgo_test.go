package bench

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/partitioner"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
	"github.com/kafkalive/kafkalive/web"
)

var (
	liveSeed   = flag.Uint64("live.seed", 0, "seed of the live kgo tests' records and fault times (0: from the clock)")
	liveKgoLog = flag.Bool("live.kgolog", false, "the live kgo tests print kgo's warnings and errors")
)

// liveCluster is the page's default world (three brokers, min.insync.replicas
// 2) served to Kafka clients on free loopback ports, its clock advanced
// speedup times faster than the wall clock.
type liveCluster struct {
	live *web.Live
	srv  *kafkawire.Server
	stop func()
}

func startLive(t *testing.T, speedup int64) *liveCluster {
	t.Helper()
	live, err := web.NewLiveWallClock(nil, func() int64 { return time.Now().UnixMilli() })
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				_ = live.Advance(10 * speedup)
			}
		}
	}()
	lc := &liveCluster{live: live, srv: srv, stop: func() { cancel(); wg.Wait() }}
	t.Cleanup(lc.stop)
	return lc
}

func (lc *liveCluster) client(t *testing.T, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	opts = append([]kgo.Opt{kgo.SeedBrokers(lc.srv.Addr(2).String()), kgo.ProducerLinger(0), kgo.FetchMaxWait(300 * time.Millisecond)}, opts...)
	if *liveKgoLog {
		opts = append(opts, kgo.WithLogger(kgo.BasicLogger(os.Stderr, kgo.LogLevelWarn, nil)))
	}
	cl, err := kgo.NewClient(opts...)
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return cl
}

// world runs fn on the live world.
func (lc *liveCluster) world(t *testing.T, fn func(w *cluster.World) error) {
	t.Helper()
	require.NoError(t, lc.live.Do(nil, fn))
}

func createTopic(t *testing.T, ctx context.Context, cl *kgo.Client, name string, partitions int32) {
	t.Helper()
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, partitions, 3
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	require.NoError(t, err)
	require.Equal(t, int16(0), resp.Topics[0].ErrorCode, "create %s", name)
}

func seedOf(t *testing.T, name string) uint64 {
	seed := uint64(time.Now().UnixNano())
	if *liveSeed != 0 {
		seed = *liveSeed
	}
	t.Logf("seed %d (replay: cd bench && go test -run '%s$' -live.seed=%d)", seed, name, seed)
	return seed
}

type sent struct {
	key, value []byte
	headers    []kgo.RecordHeader
	partition  int32
	offset     int64
}

// TestLiveKgoRoundTrip: franz-go's client, bootstrapped on broker 2 of the
// live world, finds the three brokers, creates a topic and produces keyed
// records with headers, acks=all (idempotent, kgo's default) and acks=1;
// kgo's default partitioner puts each key where partitioner.Partition says;
// a plain consumer (no group) reads them back: the same keys, values and
// headers at the partitions and offsets the producer was told, and the
// leader's segment holds them there (what dump-log reads).
func TestLiveKgoRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(seedOf(t, "TestLiveKgoRoundTrip"), 1))
	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const topic = "ext"
	admin := lc.client(t)
	lc.world(t, func(w *cluster.World) error { return w.RunFor(2000) })
	createTopic(t, ctx, admin, topic, 3)

	var all []sent
	for _, acks := range []string{"all", "1"} {
		opts := []kgo.Opt{kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-acks-" + acks)}
		if acks == "1" {
			opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
		}
		p := lc.client(t, opts...)
		for i := range 30 {
			key := fmt.Appendf(nil, "key-%d", rng.IntN(12))
			value := make([]byte, rng.IntN(300))
			for j := range value {
				value[j] = byte(rng.UintN(256))
			}
			r := &kgo.Record{Key: key, Value: value, Headers: []kgo.RecordHeader{{Key: "acks", Value: []byte(acks)}, {Key: "i", Value: fmt.Appendf(nil, "%d", i)}}}
			res := p.ProduceSync(ctx, r)
			require.NoError(t, res.FirstErr(), "acks=%s record %d", acks, i)
			want, err := partitioner.Partition(key, 3)
			require.NoError(t, err)
			require.Equal(t, want, r.Partition, "key %s: kgo's partition against partitioner.Partition", key)
			all = append(all, sent{key: key, value: value, headers: r.Headers, partition: r.Partition, offset: r.Offset})
		}
	}

	c := lc.client(t, kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.ClientID("kgo-plain-consumer"))
	var got []sent
	for len(got) < len(all) {
		fs := c.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "consumed %d of %d", len(got), len(all))
		fs.EachError(func(topic string, p int32, err error) { t.Logf("fetch %s-%d: %v", topic, p, err) })
		fs.EachRecord(func(r *kgo.Record) {
			got = append(got, sent{key: r.Key, value: r.Value, headers: r.Headers, partition: r.Partition, offset: r.Offset})
		})
	}
	key := func(s sent) string { return fmt.Sprintf("%d/%020d", s.partition, s.offset) }
	byPlace := map[string]sent{}
	for _, s := range all {
		byPlace[key(s)] = s
	}
	for _, g := range got {
		want, ok := byPlace[key(g)]
		require.True(t, ok, "consumed a record at %d-%d that no producer was told about", g.partition, g.offset)
		if diff := cmp.Diff(want, g, cmp.AllowUnexported(sent{})); diff != "" {
			t.Errorf("record at %d-%d (-want +got):\n%s", g.partition, g.offset, diff)
		}
	}

	// The world's state and the leader's segment agree.
	lc.world(t, func(w *cluster.World) error {
		perPartition := map[int32]int64{}
		for _, s := range all {
			perPartition[s.partition]++
		}
		for _, p := range w.TopicPartitions(topic) {
			fsys, err := w.BrokerFS(p.Leader)
			require.NoError(t, err)
			f, err := fsys.Open(fmt.Sprintf("%s/%s-%d/00000000000000000000.log", cluster.LogDir, topic, p.Partition))
			require.NoError(t, err)
			data := make([]byte, 1<<20)
			n, _ := f.ReadAt(data, 0)
			require.NoError(t, f.Close())
			var count int64
			var dec kafkalog.Decoder
			var b kafkalog.RecordBatch
			for pos := 0; pos < n; {
				m, err := dec.Decode(data[pos:n], &b)
				require.NoError(t, err, "leader %d's %s-%d at %d", p.Leader, topic, p.Partition, pos)
				pos += m
				for i := range b.Records {
					r := &b.Records[i]
					s, ok := byPlace[key(sent{partition: p.Partition, offset: b.Offset(r)})]
					require.True(t, ok, "the log holds offset %d nobody produced", b.Offset(r))
					require.True(t, bytes.Equal(s.value, r.Value) && bytes.Equal(s.key, r.Key), "offset %d's bytes", b.Offset(r))
					count++
				}
			}
			require.Equal(t, perPartition[p.Partition], count, "records in %s-%d", topic, p.Partition)
		}
		require.Empty(t, w.InternalErrors())
		return nil
	})

	// Going back in time closes every connection, saying why; the client
	// reconnects to the world as it was (the topic does not exist then).
	past := int64(1000)
	require.NoError(t, lc.live.Do(&past, func(w *cluster.World) error { return w.RunFor(10) }))
	require.Eventually(t, func() bool {
		v, err := lc.live.View(web.Focus{}, nil)
		return err == nil && v.Kafka != nil && v.Kafka.Notice != "" && len(lc.srv.Connections()) == 0
	}, 10*time.Second, 10*time.Millisecond, "the connections are closed after the jump back")
	v, err := lc.live.View(web.Focus{}, nil)
	require.NoError(t, err)
	require.Contains(t, v.Kafka.Notice, "went back in time")
	md := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(topic)
	md.Topics = append(md.Topics, mt)
	mr, err := md.RequestWith(ctx, admin)
	require.NoError(t, err)
	require.Equal(t, int16(3), mr.Topics[0].ErrorCode, "UNKNOWN_TOPIC_OR_PARTITION before the topic was created")
}

// TestLiveKgoFaults: an idempotent acks=all kgo producer (min.insync 2)
// sends numbered records while the leader of its partition is stopped,
// then the next one killed, then the next one's power cut (torn writes or
// not), each started again a few seconds later; a
// plain consumer then reads the partition: every acknowledged record is
// there exactly once, and nothing is there twice. The world runs five
// times the wall clock so that sessions expire quickly.
func TestLiveKgoFaults(t *testing.T) {
	seed := seedOf(t, "TestLiveKgoFaults")
	rng := rand.New(rand.NewPCG(seed, 2))
	pace := rand.New(rand.NewPCG(seed, 3)) // the producer goroutine's own: a Rand is not safe for two
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	const topic = "faults"
	admin := lc.client(t)
	createTopic(t, ctx, admin, topic, 1)
	p := lc.client(t, kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-faults"), kgo.RecordPartitioner(kgo.ManualPartitioner()))

	var mu sync.Mutex
	acked := map[string]int64{}
	stopProducing := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stopProducing:
				return
			default:
			}
			v := fmt.Sprintf("v%06d", i)
			p.Produce(ctx, &kgo.Record{Value: []byte(v)}, func(r *kgo.Record, err error) {
				if err == nil {
					mu.Lock()
					acked[v] = r.Offset
					mu.Unlock()
				}
			})
			time.Sleep(time.Duration(2+pace.IntN(5)) * time.Millisecond)
		}
	}()
	for _, f := range []string{"stop", "kill", "power-cut"} {
		time.Sleep(time.Duration(300+rng.IntN(700)) * time.Millisecond)
		var leader int32
		lc.world(t, func(w *cluster.World) error {
			leader = w.PartitionLeader(topic, 0)
			t.Logf("t=%d ms: %s the leader, broker %d", w.NowMs(), f, leader)
			switch f {
			case "stop":
				return w.Stop(leader)
			case "kill":
				return w.Kill(leader)
			}
			return w.PowerCut(leader, rng.IntN(2) == 0)
		})
		time.Sleep(time.Duration(3000+rng.IntN(2000)) * time.Millisecond)
		lc.world(t, func(w *cluster.World) error { return w.Start(leader) })
	}
	time.Sleep(time.Second)
	close(stopProducing)
	wg.Wait()
	if err := p.Flush(ctx); err != nil {
		lc.world(t, func(w *cluster.World) error {
			for id := int32(1); id <= 3; id++ {
				st, _ := w.BrokerState(id)
				t.Logf("broker %d: %s", id, st)
			}
			t.Logf("partitions: %+v", w.TopicPartitions(topic))
			t.Logf("internal errors: %+v", w.InternalErrors())
			evs := w.Events()
			for _, e := range evs[max(0, len(evs)-40):] {
				t.Logf("event t=%d %s %d: %s", e.TimeMs, e.Kind, e.Broker, e.Text)
			}
			return nil
		})
		t.Fatalf("flush: %v", err)
	}

	var hw int64
	lc.world(t, func(w *cluster.World) error {
		require.Empty(t, w.InternalErrors())
		for _, ps := range w.State().Partitions {
			if ps.Topic == topic {
				hw = ps.HighWatermark
			}
		}
		return nil
	})
	c := lc.client(t, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	seen := map[string]int64{}
	var next int64
	for next < hw {
		fs := c.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "read up to %d of %d", next, hw)
		fs.EachRecord(func(r *kgo.Record) {
			if at, dup := seen[string(r.Value)]; dup {
				t.Errorf("%s is at offsets %d and %d", r.Value, at, r.Offset)
			}
			seen[string(r.Value)] = r.Offset
			next = r.Offset + 1
		})
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%d records acknowledged, %d in the log", len(acked), len(seen))
	require.NotEmpty(t, acked)
	for v, off := range acked {
		if at, ok := seen[v]; !ok || at != off {
			t.Errorf("acknowledged %s at offset %d, the log has it at %d (present %v)", v, off, at, ok)
		}
	}
}

// TestLiveKgoTimelineReplaysHandedOverBodies: kgo floods a topic of the
// live world over the wire with random keys and values (snappy, kgo's
// default), so that the brokers keep each batch where it lies in the
// request's body, stamped by the leader (cluster.Preparer.HandOver). The
// world is then rebuilt from its timeline, whose bodies are those stamped
// ones, up to the same moment: every broker's disk holds the same files,
// byte for byte, and the rebuild meets no internal error.
func TestLiveKgoTimelineReplaysHandedOverBodies(t *testing.T) {
	rng := rand.New(rand.NewPCG(seedOf(t, "TestLiveKgoTimelineReplaysHandedOverBodies"), 2))
	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const topic = "flood"
	admin := lc.client(t)
	lc.world(t, func(w *cluster.World) error { return w.RunFor(2000) })
	createTopic(t, ctx, admin, topic, 3)
	// batches within the page's world's 16 KiB segment.bytes
	p := lc.client(t, kgo.DefaultProduceTopic(topic), kgo.ProducerLinger(5*time.Millisecond), kgo.ProducerBatchMaxBytes(12<<10))
	const n = 20000
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for i := range n {
		key := make([]byte, 1+rng.IntN(8))
		value := make([]byte, rng.IntN(200))
		for j := range key {
			key[j] = byte('a' + rng.IntN(26))
		}
		for j := range value {
			value[j] = byte(rng.IntN(256))
		}
		if i%5 == 0 {
			key = nil
		}
		wg.Add(1)
		p.Produce(ctx, &kgo.Record{Key: key, Value: value}, func(_ *kgo.Record, err error) {
			defer wg.Done()
			if err != nil {
				mu.Lock()
				failed = err
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	require.NoError(t, failed)
	lc.world(t, func(w *cluster.World) error {
		produces := 0
		for _, a := range w.Actions() {
			if a.External != nil && a.External.Key == int16(kmsg.Produce) {
				produces++
			}
		}
		again, err := w.AtTime(w.NowMs())
		if err != nil {
			return err
		}
		if errs := again.InternalErrors(); len(errs) > 0 {
			return fmt.Errorf("the rebuild met an internal error: %v", errs[0].Error)
		}
		for id := int32(1); id <= 3; id++ {
			var trees [2]vfstest.Tree
			for i, x := range []*cluster.World{w, again} {
				fsys, err := x.BrokerFS(id)
				if err != nil {
					return err
				}
				if trees[i], err = vfstest.ReadTree(fsys, ""); err != nil {
					return err
				}
			}
			if d := cmp.Diff(trees[0], trees[1]); d != "" {
				return fmt.Errorf("broker %d's disk, rebuilt from %d produce requests on the timeline (-live +rebuilt):\n%s", id, produces, d)
			}
		}
		t.Logf("%d records in %d produce requests; the rebuild holds the same bytes on all three brokers", n, produces)
		return nil
	})
}
