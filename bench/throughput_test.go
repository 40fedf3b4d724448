package bench

import (
	"bufio"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/web"
)

// The throughput benchmark: franz-go's kgo producing 100-byte records
// (acks=all, idempotent, linger 5 ms, batches as kgo builds them, no key:
// kgo's sticky partitioner) into the simulated three-broker cluster served
// as "kafkalive serve" serves it (web.Server.Run moving the world every
// web.UpdateInterval, web.StartKafka's listeners), and the same client
// against franz-go's kfake cluster (three brokers, in memory) in the same
// run. ns/op is nanoseconds per record; records/s is reported too, and
// cpu-ns/op, the process's CPU time per record (the client's and the
// cluster's, both in this process, for either impl): on a shared machine
// wall-clock figures count what other processes take.

var warmKgo = flag.Bool("throughput.warm", false, "BenchmarkKgoProduce: run each implementation warm, after an untimed run of the same size on a cluster of its own, in the pages that run faulted in")

var implOnly = flag.String("bench.impl", "", "BenchmarkKgoProduce: run only the implementations whose name matches this regexp (cmd/benchreport -separate runs each in a process of its own with it)")

var streamSeconds = flag.Int("throughput.stream", 0, "TestThroughputStreamRate: seconds to produce while counting the page's stream updates (0: skip)")

// throughputTarget is a cluster under the benchmark: the bootstrap
// address and a stop function.
type throughputTarget struct {
	seeds []string
	live  *web.Live
	page  *httptest.Server
	stop  func()
}

// serveLive serves the default world as "kafkalive serve" does, on free
// loopback ports.
func serveLive(tb testing.TB) throughputTarget {
	tb.Helper()
	live, err := web.NewLiveWallClock(nil, func() int64 { return time.Now().UnixMilli() })
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := web.NewServer(live, web.NewTerminal(live), nil)
	ks, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Run(ctx) }()
	page := httptest.NewServer(srv)
	return throughputTarget{seeds: []string{ks.Addr(1).String()}, live: live, page: page, stop: func() { page.Close(); cancel(); <-done }}
}

// serveKfake starts kfake with three brokers.
func serveKfake(tb testing.TB) throughputTarget {
	tb.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		tb.Fatal(err)
	}
	return throughputTarget{seeds: c.ListenAddrs(), stop: c.Close}
}

// serveKfakeValidating is kfake doing what Kafka's leader does with each
// produced batch before it appends it and kfake does not (LogValidator,
// Kafka 3.7): check its CRC and lengths, decompress it and read every
// record, here with kafkalog's decoder on kfake's request goroutine. It is
// the peer with the least work a faithful broker cannot skip.
func serveKfakeValidating(tb testing.TB) throughputTarget {
	tb.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		tb.Fatal(err)
	}
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	c.ControlKey(int16(kmsg.Produce), func(req kmsg.Request) (kmsg.Response, error, bool) {
		for _, t := range req.(*kmsg.ProduceRequest).Topics {
			for _, p := range t.Partitions {
				if len(p.Records) > 0 {
					_, _ = dec.Decode(p.Records, &b) // kfake answers: only the work counts
				}
			}
		}
		return nil, nil, false // not handled: kfake goes on with the request
	})
	return throughputTarget{seeds: c.ListenAddrs(), stop: c.Close}
}

// throughputTopic is the topic the benchmark writes: three partitions,
// replication factor 3.
const throughputTopic = "throughput"

// batchCount counts the batches kgo wrote and the records in them: the
// size of kgo's batches depends on how fast the cluster answers (kgo
// fills the next batch while a request is in flight), and the client's
// cost per record on its size.
type batchCount struct{ batches, records atomic.Int64 }

func (c *batchCount) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	c.batches.Add(1)
	c.records.Add(int64(m.NumRecords))
}

func throughputProducer(tb testing.TB, t throughputTarget, hooks ...kgo.Hook) *kgo.Client {
	tb.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(t.seeds...), kgo.DefaultProduceTopic(throughputTopic),
		kgo.ProducerLinger(5*time.Millisecond), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.ClientID("kgo-throughput"),
		kgo.WithHooks(hooks...))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = throughputTopic, 3, 3
	// segments larger than kgo's largest batch (1 MB; the world's
	// default, 16 KiB, refuses such a batch as RECORD_LIST_TOO_LARGE, as
	// Kafka does), and a bounded log
	for _, c := range [][2]string{{"segment.bytes", "4194304"}, {"retention.bytes", "16777216"}} {
		tc := kmsg.NewCreateTopicsRequestTopicConfig()
		tc.Name, tc.Value = c[0], kmsg.StringPtr(c[1])
		rt.Configs = append(rt.Configs, tc)
	}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		tb.Fatal(err)
	}
	if code := resp.Topics[0].ErrorCode; code != 0 {
		tb.Fatalf("CreateTopics %s: error code %d", throughputTopic, code)
	}
	// one record through, so that metadata and the producer id are there
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: make([]byte, 100)}).FirstErr(); err != nil {
		tb.Fatal(err)
	}
	return cl
}

// produceN produces n 100-byte records and waits for every
// acknowledgement; it returns how many failed.
func produceN(ctx context.Context, cl *kgo.Client, n int) (int64, error) {
	var failed atomic.Int64
	var first atomic.Pointer[error]
	value := make([]byte, 100)
	for range n {
		cl.Produce(ctx, &kgo.Record{Value: value}, func(_ *kgo.Record, err error) {
			if err != nil {
				failed.Add(1)
				first.CompareAndSwap(nil, &err)
			}
		})
	}
	_ = cl.Flush(ctx)
	if e := first.Load(); e != nil {
		return failed.Load(), *e
	}
	return 0, nil
}

// BenchmarkKgoProduce: records a second kgo gets acknowledged with
// acks=all by the simulated cluster (impl=kafkalive), by kfake
// (impl=kfake) and by kfake validating each batch as Kafka's leader does
// (impl=kfake-validating). Compare them within a run (go test -bench
// KgoProduce -count 5, or cmd/benchreport -bench KgoProduce; with
// -separate kafkalive,kfake,kfake-validating, each runs in a process of its
// own).
func BenchmarkKgoProduce(b *testing.B) {
	only, err := regexp.Compile(*implOnly)
	if err != nil {
		b.Fatalf("-bench.impl: %v", err)
	}
	for _, impl := range []struct {
		name  string
		serve func(testing.TB) throughputTarget
	}{{"kafkalive", serveLive}, {"kfake", serveKfake}, {"kfake-validating", serveKfakeValidating}} {
		if !only.MatchString(impl.name) {
			continue
		}
		b.Run("100B-acks-all/impl="+impl.name, func(b *testing.B) {
			// Every implementation starts cold: the memory the one before
			// it freed goes back to the system, so that none runs in
			// pages another already faulted in (the first touch of a
			// page is a large part of either's cost: a cluster that
			// keeps more copies of each batch pays for them).
			debug.FreeOSMemory()
			if *warmKgo {
				warmUp(b, impl.serve, b.N)
			}
			t := impl.serve(b)
			defer t.stop()
			var count batchCount
			cl := throughputProducer(b, t, &count)
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			if _, err := produceN(ctx, cl, 2000); err != nil { // warm-up
				b.Fatal(err)
			}
			b.ResetTimer()
			batches0, records0 := count.batches.Load(), count.records.Load()
			cpu := start(b, 100) // a GC, SetBytes, ReportAllocs, the CPU clock
			began := time.Now()
			failed, err := produceN(ctx, cl, b.N)
			elapsed := time.Since(began)
			b.StopTimer()
			cpu.report(b)
			if failed > 0 {
				b.Fatalf("%d of %d records failed, the first: %v", failed, b.N, err)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "records/s")
			if n := count.batches.Load() - batches0; n > 0 {
				b.ReportMetric(float64(count.records.Load()-records0)/float64(n), "records/batch")
			}
		})
	}
}

// warmUp produces n records into a cluster serve starts, untimed, and
// stops it: what the process faulted in for it, the next cluster of the
// same kind runs in.
func warmUp(b *testing.B, serve func(testing.TB) throughputTarget, n int) {
	t := serve(b)
	defer t.stop()
	cl := throughputProducer(b, t)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := produceN(ctx, cl, n); err != nil {
		b.Fatal(err)
	}
}

// TestThroughputStreamRate (with -throughput.stream=N): while kgo
// produces as fast as it can into the simulated cluster for N seconds,
// the page's update stream (/api/stream) keeps sending views; the test
// prints how many a second arrived and the records a second
// acknowledged, and fails if the stream fell under 5 updates a second
// (the page updates at 10 a second, web.UpdateInterval).
func TestThroughputStreamRate(t *testing.T) {
	if *streamSeconds <= 0 {
		t.Skip("a measurement: go test -run TestThroughputStreamRate -throughput.stream=10")
	}
	tg := serveLive(t)
	defer tg.stop()
	cl := throughputProducer(t, tg)
	defer cl.Close()
	req, err := http.NewRequest("GET", tg.page.URL+"/api/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var views atomic.Int64
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: view") {
				views.Add(1)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*streamSeconds)*time.Second)
	defer cancel()
	time.Sleep(time.Second) // the first view and the stream's pace
	v0, start := views.Load(), time.Now()
	var acked atomic.Int64
	value := make([]byte, 100)
	for ctx.Err() == nil {
		cl.Produce(ctx, &kgo.Record{Value: value}, func(_ *kgo.Record, err error) {
			if err == nil {
				acked.Add(1)
			}
		})
	}
	elapsed := time.Since(start)
	n := views.Load() - v0
	rate := float64(n) / elapsed.Seconds()
	t.Logf("%.1f s: %d stream updates (%.1f a second), %d records acknowledged (%.0f a second)", elapsed.Seconds(), n, rate, acked.Load(), float64(acked.Load())/elapsed.Seconds())
	if rate < 5 {
		t.Errorf("the page's stream sent %.1f updates a second while kgo produced; it should keep about 10", rate)
	}
	// The brokers' disks: the topic's retention (16 MiB a partition, the
	// deleted segments kept file.delete.delay.ms) bounds what the flood
	// leaves on them; a broker halted for a full disk fails the test.
	err = tg.live.Do(nil, func(w *cluster.World) error {
		for _, b := range w.Brokers() {
			t.Logf("broker %d: %s, %d MiB on a disk of %d MiB", b.ID, b.State, b.DiskBytes>>20, b.DiskCapacity>>20)
			if b.State != "running" {
				t.Errorf("broker %d is %s after the flood", b.ID, b.State)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
