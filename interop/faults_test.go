package interop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// faultOps are the matrix cells of TestKgoFaults.
var faultOps = []string{"faults: producer recovers", "faults: group recovers", "faults: no acked record lost", "faults: none duplicated"}

// TestKgoFaults: an idempotent acks=all kgo producer sends keyed records
// to a topic of three partitions (min.insync.replicas 2) while two kgo
// members of a group read and commit them; the leader of a partition is
// stopped, then one killed, then one's power cut (torn writes or not),
// each started again a few seconds later. The producer goes on being
// acknowledged after each fault, the group reads on; at the end every
// acknowledged record is in the log exactly once at the offset the
// producer was told, nothing is in the log twice, and the group has read
// every acknowledged record. The world runs five times the wall clock so
// that the controller fences a broker quickly.
func TestKgoFaults(t *testing.T) {
	t.Parallel()
	seed := seedOf(t)
	rng := rand.New(rand.NewPCG(seed, 3))
	pace := rand.New(rand.NewPCG(seed, 4)) // the producer goroutine's own: a Rand is not safe for two
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	const topic, group, partitions = "faults", "faults-group", 3

	admin := lc.kgoClient(t)
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, partitions, 3
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, admin)
	require.NoError(t, err)
	require.Equal(t, int16(0), resp.Topics[0].ErrorCode)
	// the topic has no min.insync.replicas of its own: the brokers' 2
	require.Contains(t, lc.exec(t, "kafka-topics --describe --topic "+topic), "min.insync.replicas=2")

	p := lc.kgoClient(t, kgo.DefaultProduceTopic(topic), kgo.ClientID("kgo-faults-producer")) // acks=all, idempotent
	var mu sync.Mutex
	acked := map[string]rec{}      // value -> where the producer was told
	consumed := map[string][]rec{} // value -> every time the group read it
	ackedAt := []time.Time{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			v := fmt.Sprintf("v%06d", i)
			p.Produce(ctx, &kgo.Record{Key: fmt.Appendf(nil, "key-%d", i%7), Value: []byte(v)}, func(r *kgo.Record, err error) {
				if err != nil {
					return
				}
				mu.Lock()
				acked[v] = rec{Key: r.Key, Value: r.Value, Partition: r.Partition, Offset: r.Offset}
				ackedAt = append(ackedAt, time.Now())
				mu.Unlock()
			})
			time.Sleep(time.Duration(2+pace.IntN(5)) * time.Millisecond)
		}
	}()
	for m := range 2 {
		cl := lc.kgoClient(t, kgo.ConsumeTopics(topic), kgo.ConsumerGroup(group), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.DisableAutoCommit(), kgo.ClientID(fmt.Sprintf("kgo-faults-member-%d", m)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				fs := cl.PollFetches(ctx)
				if ctx.Err() != nil || fs.IsClientClosed() {
					return
				}
				select {
				case <-stop:
					// the producer stopped: read on until the test ends
				default:
				}
				var rs []*kgo.Record
				fs.EachRecord(func(r *kgo.Record) {
					rs = append(rs, r)
					mu.Lock()
					consumed[string(r.Value)] = append(consumed[string(r.Value)], rec{Key: r.Key, Value: r.Value, Partition: r.Partition, Offset: r.Offset})
					mu.Unlock()
				})
				if len(rs) > 0 {
					_ = cl.CommitRecords(ctx, rs...) // a failed commit is read again: at least once
				}
			}
		}()
	}

	ackedSince := func(since time.Time) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, at := range ackedAt {
			if at.After(since) {
				n++
			}
		}
		return n
	}
	recovered := true
	leaderFaults(t, lc, rng, topic, partitions, faultPace{before: 500 * time.Millisecond, down: 3 * time.Second},
		func(f string, victim int32, down time.Time) {
			// the producer is acknowledged again after the fault
			if !waitFor(10*time.Second, func() bool { return ackedSince(down.Add(time.Second)) > 0 }) {
				recovered = false
				t.Errorf("no record acknowledged after the %s of broker %d", f, victim)
			}
		})
	op(t, "kgo", faultOps[0], func(t *testing.T) {
		if !recovered {
			t.Fatal("the producer stopped being acknowledged after a fault")
		}
	})
	close(stop)
	require.NoError(t, p.Flush(ctx))

	mu.Lock()
	want := len(acked)
	mu.Unlock()
	t.Logf("%d records acknowledged", want)
	op(t, "kgo", faultOps[1], func(t *testing.T) {
		ok := waitFor(60*time.Second, func() bool {
			mu.Lock()
			defer mu.Unlock()
			for v := range acked {
				if len(consumed[v]) == 0 {
					return false
				}
			}
			return true
		})
		mu.Lock()
		defer mu.Unlock()
		missed, again := 0, 0
		for v := range acked {
			if len(consumed[v]) == 0 {
				missed++
			}
		}
		for _, rs := range consumed {
			again += len(rs) - 1
		}
		t.Logf("the group read %d distinct records, %d of them again after a rebalance (at least once)", len(consumed), again)
		require.True(t, ok, "the group has not read %d of the %d acknowledged records", missed, len(acked))
		for v, rs := range consumed {
			a, isAcked := acked[v]
			for _, r := range rs {
				if isAcked && (r.Partition != a.Partition || r.Offset != a.Offset) {
					t.Errorf("%s was acknowledged at %d@%d, the group read it at %d@%d", v, a.Partition, a.Offset, r.Partition, r.Offset)
				}
			}
		}
	})

	inLog := readLog(ctx, t, lc, topic, partitions)
	mu.Lock()
	defer mu.Unlock()
	op(t, "kgo", faultOps[2], func(t *testing.T) { ackedInLog(t, acked, inLog) })
	op(t, "kgo", faultOps[3], func(t *testing.T) { noneTwice(t, inLog) })
}

// readLog reads every partition of topic from the start to its high
// watermark: each value, with everywhere it is in the log.
func readLog(ctx context.Context, t *testing.T, lc *liveCluster, topic string, partitions int32) map[string][]rec {
	t.Helper()
	hw := map[int32]int64{}
	lc.world(t, func(w *cluster.World) error {
		require.Empty(t, w.InternalErrors())
		for _, ps := range w.State().Partitions {
			if ps.Topic == topic {
				hw[ps.Partition] = ps.HighWatermark
			}
		}
		return nil
	})
	offsets := map[string]map[int32]kgo.Offset{topic: {}}
	for p := range partitions {
		offsets[topic][p] = kgo.NewOffset().AtStart()
	}
	reader := lc.kgoClient(t, kgo.ConsumePartitions(offsets), kgo.ClientID("kgo-faults-reader"))
	inLog := map[string][]rec{}
	next := map[int32]int64{}
	for p := range partitions {
		next[p] = 0
	}
	done := func() bool {
		for p, n := range next {
			if n < hw[p] {
				return false
			}
		}
		return true
	}
	for !done() {
		fs := reader.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "read %v of %v", next, hw)
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset < hw[r.Partition] {
				inLog[string(r.Value)] = append(inLog[string(r.Value)], rec{Key: r.Key, Value: r.Value, Partition: r.Partition, Offset: r.Offset})
			}
			next[r.Partition] = r.Offset + 1
		})
	}
	t.Logf("the log holds %d records below the high watermarks %v", len(inLog), hw)
	return inLog
}

// ackedInLog: every acknowledged record (by value) is in the log where the
// producer was told.
func ackedInLog(t *testing.T, acked map[string]rec, inLog map[string][]rec) {
	require.NotEmpty(t, acked)
	for v, a := range acked {
		rs := inLog[v]
		if len(rs) == 0 {
			t.Errorf("acknowledged %s at %d@%d is not in the log", v, a.Partition, a.Offset)
		} else if rs[0].Partition != a.Partition || rs[0].Offset != a.Offset {
			t.Errorf("acknowledged %s at %d@%d is in the log at %d@%d", v, a.Partition, a.Offset, rs[0].Partition, rs[0].Offset)
		}
	}
}

// noneTwice: no value is in the log twice (an idempotent producer's retries
// are deduplicated by the leader).
func noneTwice(t *testing.T, inLog map[string][]rec) {
	for v, rs := range inLog {
		if len(rs) > 1 {
			t.Errorf("%s is in the log %d times: %v", v, len(rs), rs)
		}
	}
}

// producerFaultOps are the matrix cells of TestConfluentKafkaFaults and
// TestSaramaFaults.
var producerFaultOps = []string{"faults: producer recovers", "faults: no acked record lost", "faults: none duplicated"}

// TestConfluentKafkaFaults: librdkafka's idempotent acks=all producer
// (confluent-kafka-python) sends keyed records for 16 s into a topic of
// three partitions (min.insync.replicas 2) while the leader of a
// partition is stopped, then one killed, then one's power cut, each
// started again a few seconds later: every record is delivered (librdkafka
// retries through NOT_LEADER_OR_FOLLOWER, closed connections and
// timeouts), each acknowledged record is in the log exactly where the
// producer was told, and none is there twice.
func TestConfluentKafkaFaults(t *testing.T) {
	t.Parallel()
	py := findPython("confluent_kafka")
	if py == "" {
		missing(t, "confluent-kafka", "python3-confluent-kafka", producerFaultOps)
	}
	seed := seedOf(t)
	rng := rand.New(rand.NewPCG(seed, 5))
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Second)
	defer cancel()
	const topic, partitions = "faults-librdkafka", 3
	lc.exec(t, fmt.Sprintf("kafka-topics --create --topic %s --partitions %d --replication-factor 3", topic, partitions))

	d := pythonDriver{lc: lc, python: py, script: "confluent_kafka_client.py", bootstrap: lc.bootstraps()}
	var out struct {
		Acked      []pyRec `json:"acked"`
		Failed     int     `json:"failed"`
		FirstError string  `json:"first_error"`
	}
	produced := make(chan error, 1)
	go func() { produced <- d.run(ctx, t, nil, &out, "produce-for", topic, "16") }()
	leaderFaults(t, lc, rng, topic, partitions, faultPace{before: 1500 * time.Millisecond, down: 2 * time.Second}, nil)
	require.NoError(t, <-produced)
	got, err := fromPy(out.Acked)
	require.NoError(t, err)
	acked := map[string]rec{}
	for _, r := range got {
		acked[string(r.Value)] = r
	}
	t.Logf("%d records acknowledged, %d failed", len(acked), out.Failed)
	op(t, "confluent-kafka", producerFaultOps[0], func(t *testing.T) {
		if out.Failed > 0 {
			t.Fatalf("%d records failed, the first: %s", out.Failed, out.FirstError)
		}
	})
	inLog := readLog(ctx, t, lc, topic, partitions)
	op(t, "confluent-kafka", producerFaultOps[1], func(t *testing.T) { ackedInLog(t, acked, inLog) })
	op(t, "confluent-kafka", producerFaultOps[2], func(t *testing.T) { noneTwice(t, inLog) })
}

// faultPace is how long leaderFaults waits before each fault and how long
// the broker stays down, each at least the given time and up to half again
// as long, drawn at random.
type faultPace struct{ before, down time.Duration }

// leaderFaults stops, then kills, then cuts the power of (torn writes or
// not) the broker that leads partition 0, 1 and 2 of topic in turn,
// starting each again after a while, and then calls after (if set) with
// the fault, the broker and when it went down.
func leaderFaults(t *testing.T, lc *liveCluster, rng *rand.Rand, topic string, partitions int32, pace faultPace, after func(f string, victim int32, down time.Time)) {
	t.Helper()
	jitter := func(d time.Duration) time.Duration { return d + time.Duration(rng.Int64N(int64(d/2)+1)) }
	for i, f := range []string{"stop", "kill", "power-cut"} {
		time.Sleep(jitter(pace.before))
		p := int32(i) % partitions
		var victim int32
		lc.world(t, func(w *cluster.World) error {
			victim = w.PartitionLeader(topic, p)
			t.Logf("t=%d ms: %s broker %d, the leader of %s-%d", w.NowMs(), f, victim, topic, p)
			switch f {
			case "stop":
				return w.Stop(victim)
			case "kill":
				return w.Kill(victim)
			}
			return w.PowerCut(victim, rng.IntN(2) == 0)
		})
		down := time.Now()
		time.Sleep(jitter(pace.down))
		lc.world(t, func(w *cluster.World) error { return w.Start(victim) })
		if after != nil {
			after(f, victim, down)
		}
	}
}

// waitFor polls cond every 50 ms until it holds or d has passed.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// TestSaramaFaults: sarama's idempotent acks=all AsyncProducer (one
// request in flight, as its idempotence requires) sends keyed records
// while the leader of a partition is stopped, then one killed, then one's
// power cut, each started again a few seconds later: every record is
// delivered, each acknowledged one is in the log where the producer was
// told, and none is there twice.
func TestSaramaFaults(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(seedOf(t), 9))
	lc := startLive(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Second)
	defer cancel()
	const topic, partitions = "faults-sarama", 3
	lc.exec(t, fmt.Sprintf("kafka-topics --create --topic %s --partitions %d --replication-factor 3", topic, partitions))
	cfg := saramaDriver{lc}.config("sarama-faults")
	cfg.Producer.Return.Successes = true
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.Retry.Max = 1000
	cfg.Producer.Retry.Backoff = 100 * time.Millisecond
	cfg.Producer.Flush.Frequency = 5 * time.Millisecond
	p, err := sarama.NewAsyncProducer([]string{lc.bootstrap(1), lc.bootstrap(2), lc.bootstrap(3)}, cfg)
	require.NoError(t, err)
	var mu sync.Mutex
	acked := map[string]rec{}
	failed := 0
	var firstErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for m := range p.Successes() {
			v, _ := m.Value.Encode()
			mu.Lock()
			acked[string(v)] = rec{Value: v, Partition: m.Partition, Offset: m.Offset}
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for e := range p.Errors() {
			mu.Lock()
			failed++
			if firstErr == nil {
				firstErr = e.Err
			}
			mu.Unlock()
		}
	}()
	stop := make(chan struct{})
	sent := make(chan int)
	go func() {
		i := 0
		for {
			select {
			case <-stop:
				sent <- i
				return
			default:
			}
			p.Input() <- &sarama.ProducerMessage{Topic: topic, Key: sarama.StringEncoder(fmt.Sprintf("key-%d", i%7)), Value: sarama.StringEncoder(fmt.Sprintf("s%07d", i))}
			i++
			if i%20 == 0 {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}()
	leaderFaults(t, lc, rng, topic, partitions, faultPace{before: 1500 * time.Millisecond, down: 2 * time.Second}, nil)
	time.Sleep(2 * time.Second)
	close(stop)
	n := <-sent
	p.AsyncClose()
	wg.Wait()
	t.Logf("sent %d, acked %d, failed %d", n, len(acked), failed)
	op(t, "sarama", producerFaultOps[0], func(t *testing.T) {
		if failed > 0 {
			t.Fatalf("%d records failed, the first: %v", failed, firstErr)
		}
	})
	inLog := readLog(ctx, t, lc, topic, partitions)
	op(t, "sarama", producerFaultOps[1], func(t *testing.T) { ackedInLog(t, acked, inLog) })
	op(t, "sarama", producerFaultOps[2], func(t *testing.T) { noneTwice(t, inLog) })
}
