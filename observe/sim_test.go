package observe_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/web"
)

// sim is a simulated cluster served to Kafka clients as `kafkalive serve`
// serves it, on loopback ports, its clock moved by the test alone
// (advance): while a poll runs only the poll's requests act on the world.
// Its listeners record the api key of every request they read (keys).
type sim struct {
	live *web.Live
	srv  *kafkawire.Server
	keys *keyTap
}

// keyTap records the api keys of the requests the listeners read.
type keyTap struct {
	mu   sync.Mutex
	keys map[int16]int
}

func (k *keyTap) Tapping(kafkawire.ConnInfo) bool { return true }

func (k *keyTap) Exchanged(x kafkawire.Exchange) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keys[x.Header.APIKey]++
}

// seen returns the keys read so far, sorted.
func (k *keyTap) seen() []int16 {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []int16
	for key := range k.keys {
		out = append(out, key)
	}
	slices.Sort(out)
	return out
}

// tb is what the helpers need of a test: a testing.T or a rapid.T.
type tb interface {
	require.TestingT
	Cleanup(func())
}

// startSim serves w on loopback listeners, one per broker.
func startSim(t tb, w *cluster.World) *sim {
	live := web.NewLiveWorld(w)
	k := web.NewKafka(live)
	var ids []int32
	for id := int32(1); id <= int32(w.Config().Brokers); id++ {
		ids = append(ids, id)
	}
	tap := &keyTap{keys: map[int16]int{}}
	srv, err := kafkawire.New(kafkawire.Config{Listeners: kafkawire.LoopbackListeners(ids...), Backend: k, Tap: tap})
	require.NoError(t, err)
	k.Attach(srv)
	srv.Start()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.Run(ctx) }()
	t.Cleanup(func() { srv.Close(); cancel(); <-done })
	return &sim{live: live, srv: srv, keys: tap}
}

// bootstrap is every broker's listener address.
func (s *sim) bootstrap() []string {
	var out []string
	for _, id := range s.srv.Brokers() {
		out = append(out, s.srv.Addr(id).String())
	}
	return out
}

// world runs fn on the world, still.
func (s *sim) world(t tb, fn func(w *cluster.World) error) {
	require.NoError(t, s.live.Do(nil, fn))
}

// advance moves the world's clock by ms.
func (s *sim) advance(t tb, ms int64) {
	s.world(t, func(w *cluster.World) error { return w.RunFor(ms) })
}

// observer is an observer of s, closed with the test.
func (s *sim) observer(t tb, cfg observe.Config) *observe.Observer {
	cfg.Bootstrap = s.bootstrap()
	if cfg.Interval == 0 {
		cfg.Interval = time.Second
	}
	o, err := observe.New(cfg)
	require.NoError(t, err)
	t.Cleanup(o.Close)
	return o
}

// TestObserveSimulatedCluster: an observer of the default world, with a
// producer at work and a group reading, sees the brokers, the partitions
// as the world's State has them (leader, epoch, replicas, ISR, log start,
// high watermark, each replica's log end), the group and its offsets, and
// the quorum; it sends nothing but read-only requests.
func TestObserveSimulatedCluster(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 7, CombinedControllers: true})
	require.NoError(t, err)
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: "orders", Partitions: 3, ReplicationFactor: 3}}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "p", Topic: "orders", Acks: "all", RecordsPerSec: 20}}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: "c1", Group: "readers", Topics: []string{"orders"}}}))
	require.NoError(t, w.RunFor(10_000))
	s := startSim(t, w)
	o := s.observer(t, observe.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	smp := o.Poll(ctx)
	require.Empty(t, smp.Unanswered)
	var st cluster.State
	s.world(t, func(w *cluster.World) error { st = w.State(); return nil })
	checkAgainst(t, smp, st)
	require.NotNil(t, smp.Quorum)
	require.Equal(t, st.ActiveController, smp.Quorum.LeaderID)
	require.Len(t, smp.Groups, 1)
	require.Equal(t, "readers", smp.Groups[0].Name)
	for _, key := range s.keys.seen() {
		require.True(t, observe.IsReadOnly(key), "api key %d sent", key)
	}
	_, others := o.Sent()
	require.Empty(t, others)
	t.Logf("%d requests, %s", smp.Requests, smp.Took)
	// once connected: the poll's own requests and the client's Metadata
	// refresh, within the budget the package documents (5 + ⌈N/2000⌉ + 9B,
	// and the refresh)
	again := o.Poll(ctx)
	t.Logf("once connected: %d requests, %s", again.Requests, again.Took)
	require.LessOrEqual(t, again.Requests, 5+1+9*3+1)
}

// TestKilledBrokerShowsDownWithin20s: a broker killed in the world shows,
// polling once a simulated second, as no longer up within 20 s, with no
// partition led by it, and the events say so.
func TestKilledBrokerShowsDownWithin20s(t *testing.T) {
	for _, kill := range []cluster.ActionKind{cluster.ActKill, cluster.ActPowerCut, cluster.ActStop} {
		t.Run(string(kill), func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 3})
			require.NoError(t, err)
			require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: "orders", Partitions: 6, ReplicationFactor: 3}}))
			require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "p", Topic: "orders", Acks: "all", RecordsPerSec: 20}}))
			require.NoError(t, w.RunFor(5_000))
			s := startSim(t, w)
			o := s.observer(t, observe.Config{PollTimeout: 500 * time.Millisecond})
			before := o.Poll(context.Background())
			victim := before.Partition("orders", 0).Leader
			require.Positive(t, victim)
			s.world(t, func(w *cluster.World) error { return w.Do(cluster.Action{Kind: kill, Broker: victim}) })
			for sec := 1; ; sec++ {
				s.advance(t, 1000)
				smp := o.Poll(context.Background())
				b, _ := smp.Broker(victim)
				led := 0
				for _, p := range smp.Partitions {
					if p.Leader == victim {
						led++
					}
				}
				if b.State != observe.BrokerUp && led == 0 && smp.Partitions != nil {
					t.Logf("broker %d %s after %d s", victim, b.State, sec)
					break
				}
				if sec == 20 {
					t.Fatalf("20 s after %s of broker %d: %s, leading %d partition(s); unanswered: %q", kill, victim, b.State, led, smp.Unanswered)
				}
			}
			var saw []string
			o.Look(func(tl *observe.Timeline) {
				for _, e := range tl.Events() {
					if e.Kind == observe.EventBroker || e.Kind == observe.EventLeader && e.Partition == 0 {
						saw = append(saw, e.Text)
					}
				}
			})
			require.NotEmpty(t, saw, "no event of the broker or of orders-0's leader")
			t.Logf("events: %q", saw)
		})
	}
}

// checkAgainst checks what smp observed of each partition against st,
// the world at the end of the poll with nothing moving meanwhile.
func checkAgainst(t tb, smp *observe.Sample, st cluster.State) {
	for _, p := range st.Partitions {
		got := smp.Partition(p.Topic, p.Partition)
		require.NotNil(t, got, "%s-%d not observed", p.Topic, p.Partition)
		require.Equal(t, p.Leader, got.Leader, "%s-%d leader", p.Topic, p.Partition)
		require.Equal(t, p.LeaderEpoch, got.LeaderEpoch, "%s-%d epoch", p.Topic, p.Partition)
		require.Equal(t, p.Replicas, got.Replicas, "%s-%d replicas", p.Topic, p.Partition)
		require.Equal(t, p.ISR, got.ISR, "%s-%d isr", p.Topic, p.Partition)
		if p.Leader >= 0 {
			require.Equal(t, p.HighWatermark, got.HighWatermark, "%s-%d high watermark", p.Topic, p.Partition)
			require.Equal(t, p.LogStartOffset, got.LogStartOffset, "%s-%d log start", p.Topic, p.Partition)
		}
		for _, l := range got.Logs {
			for _, tl := range p.Logs {
				if tl.Broker == l.Broker && tl.Role != "down" {
					require.Equal(t, tl.LogEndOffset, l.LogEndOffset, "%s-%d broker %d LEO", p.Topic, p.Partition, l.Broker)
				}
			}
		}
	}
}

// TestObserveELRAndProducers: under Kafka 4's rules, with
// min.insync.replicas 2 and two of three brokers stopped, the partitions'
// eligible leader replicas (KIP-966) the observer reads with
// DescribeTopicPartitions are the world's, and not empty; the idempotent
// producer's state its leader tells with DescribeProducers is the
// world's; the last stable offset is the high watermark (no transaction).
// DescribeTopicPartitions asks two partitions a page here: the cursor
// must take it through every topic.
func TestObserveELRAndProducers(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 5, Rules: replica.V4, MinInsyncReplicas: 2, CombinedControllers: true})
	require.NoError(t, err)
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: "orders", Partitions: 3, ReplicationFactor: 3}}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "p", Topic: "orders", Acks: "all",
		RecordsPerSec: 20, EnableIdempotence: cluster.Bool(true)}}))
	require.NoError(t, w.RunFor(5_000))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActStop, Broker: 2}))
	require.NoError(t, w.RunFor(15_000))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActStop, Broker: 3}))
	require.NoError(t, w.RunFor(15_000))
	s := startSim(t, w)
	o := s.observer(t, observe.Config{PollTimeout: 2 * time.Second})
	observe.SetDescribePartitionsLimit(o, 2) // pages of two partitions: the cursor goes through every topic
	smp := o.Poll(context.Background())
	require.True(t, smp.ELRListed, "unanswered: %q", smp.Unanswered)
	sent, _ := o.Sent()
	require.Equal(t, 2, sent[75], "three partitions in pages of two: DescribeTopicPartitions went on from its cursor once")
	var st cluster.State
	var prods [][]cluster.ProducerState
	s.world(t, func(w *cluster.World) error {
		st = w.State()
		for i := range int32(3) {
			ps, _ := w.PartitionProducers("orders", i, 0)
			prods = append(prods, ps)
		}
		return nil
	})
	checkAgainst(t, smp, st)
	elr := 0
	for i, p := range st.Partitions {
		got := smp.Partition(p.Topic, p.Partition)
		require.Equal(t, p.ELR, got.ELR, "%s-%d ELR", p.Topic, p.Partition)
		require.Equal(t, p.LastKnownELR, got.LastKnownELR, "%s-%d last known ELR", p.Topic, p.Partition)
		elr += len(got.ELR)
		if got.HighWatermark >= 0 {
			require.Equal(t, got.HighWatermark, got.LastStableOffset, "%s-%d LSO", p.Topic, p.Partition)
		}
		require.Equal(t, smp.Seq, got.ProducersSeq, "%s-%d: every partition is asked when a broker leads at most %d", p.Topic, p.Partition, observe.MaxProducerPartitions)
		require.Len(t, got.Producers, len(prods[i]))
		for j, w := range prods[i] {
			require.Equal(t, w.ProducerID, got.Producers[j].ID)
			require.Equal(t, w.LastSequence, got.Producers[j].LastSequence)
		}
	}
	require.Positive(t, elr, "two of three replicas stopped under min.insync.replicas 2: some partition keeps eligible leader replicas")
	total := 0
	for _, ps := range prods {
		total += len(ps)
	}
	require.Positive(t, total, "the idempotent producer has state on the partitions")
}
