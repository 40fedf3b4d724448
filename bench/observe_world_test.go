package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/web"
	"github.com/kafkalive/kafkalive/web/observed"
)

// worldPartitions is the size of the world BenchmarkObserveWorld observes.
const worldPartitions = 2000

// TestObservedWorldHelper is not a test of its own: BenchmarkObserveWorld
// runs it as a process apart (KAFKALIVE_BENCH_WORLD=1), so that the CPU
// time the benchmark measures is the observer's and the page's alone, not
// the simulated brokers'. It serves a kafkalive world of
// worldPartitions partitions on three brokers under Kafka 4's rules, an
// idempotent producer writing to 100 keys and a group of two reading,
// to Kafka clients, prints its listeners' addresses, and runs the world's
// clock at the wall clock's pace until its standard input closes.
func TestObservedWorldHelper(t *testing.T) {
	if os.Getenv("KAFKALIVE_BENCH_WORLD") == "" {
		t.Skip("a world served for BenchmarkObserveWorld, run by it")
	}
	w, err := cluster.New(cluster.Config{Seed: 1, Brokers: 3, CombinedControllers: true, Rules: replica.V4})
	require.NoError(t, err)
	do := func(a cluster.Action) { require.NoError(t, w.Do(a)) }
	do(cluster.Action{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: "events", Partitions: worldPartitions, ReplicationFactor: 3}})
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i)
	}
	do(cluster.Action{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "writer", Topic: "events", Acks: "all",
		RecordsPerSec: 200, Keys: keys, EnableIdempotence: cluster.Bool(true)}})
	for _, m := range []string{"reader-1", "reader-2"} {
		do(cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: m, Group: "dashboard", Topics: []string{"events"}}})
	}
	require.NoError(t, w.RunFor(10_000))
	live := web.NewLiveWorld(w)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	go live.RunClock(ctx, web.UpdateInterval, nil)
	var addrs []string
	for id := int32(1); id <= 3; id++ {
		addrs = append(addrs, srv.Addr(id).String())
	}
	fmt.Printf("WORLD %s\n", strings.Join(addrs, ","))
	io.Copy(io.Discard, os.Stdin)
}

// startWorld runs TestObservedWorldHelper in a process of its own and
// returns its brokers' addresses.
func startWorld(b *testing.B) []string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestObservedWorldHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "KAFKALIVE_BENCH_WORLD=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(b, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(b, err)
	cmd.Stderr = os.Stderr
	require.NoError(b, cmd.Start())
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if addrs, ok := strings.CutPrefix(sc.Text(), "WORLD "); ok {
			go io.Copy(io.Discard, stdout)
			return strings.Split(addrs, ",")
		}
	}
	b.Fatalf("the world's process ended before it served: %v", sc.Err())
	return nil
}

// BenchmarkObserveWorld observes a kafkalive world of 2,000 partitions on
// three brokers (a process of its own, its clock running, an idempotent
// producer writing and a group reading) as `kafkalive observe --addr`
// does, the CPU time counted (cpu-ns/op) being this process's alone:
//
//   - impl=observe is one observe.Observer.Poll: everything the page
//     shows (each replica's log end, the leaders' log start, high
//     watermark and last stable offset, the ELR, the producers of up to
//     200 partitions a broker, log dirs, configs, the group with its lag,
//     the brokers, the quorum). A poll a second within 5% of a core is at
//     most 50 ms of CPU a poll;
//   - impl=kadm is the peer: kadm's own calls for the same data where it
//     has one (Metadata, the start, end and last stable offsets, log dirs,
//     topic configs, the group's lag, the producers of every partition);
//   - impl=page-frame is one update of a connected page after a new
//     sample: the view of the sample built, encoded, and the frame (the
//     patch of what changed) that the page's stream sends (web.Watch's
//     work), its bytes as B/op. Ten a second must fit in a core's tenth.
//     Each op polls first, outside the clocks.
func BenchmarkObserveWorld(b *testing.B) {
	addrs := startWorld(b)
	ctx := context.Background()
	newObserver := func(b *testing.B) *observe.Observer {
		o, err := observe.New(observe.Config{Bootstrap: addrs, PollTimeout: 10 * time.Second})
		require.NoError(b, err)
		b.Cleanup(o.Close)
		s := o.Poll(ctx) // warm: connections, versions
		require.Empty(b, s.Unanswered)
		require.Len(b, s.Partitions, worldPartitions+50) // and __consumer_offsets
		return o
	}
	name := fmt.Sprintf("partitions=%d", worldPartitions)
	b.Run(name+"/impl=observe", func(b *testing.B) {
		o := newObserver(b)
		benchPolls(b, func() int {
			s := o.Poll(ctx)
			if len(s.Unanswered) > 0 {
				b.Fatalf("unanswered: %q", s.Unanswered)
			}
			return s.Requests
		})
	})
	b.Run(name+"/impl=kadm", func(b *testing.B) {
		cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
		require.NoError(b, err)
		defer cl.Close()
		adm := kadm.NewClient(cl)
		poll := func() {
			md, err := adm.Metadata(ctx)
			require.NoError(b, err)
			topics := md.Topics.Names()
			for _, list := range []func(context.Context, ...string) (kadm.ListedOffsets, error){adm.ListStartOffsets, adm.ListEndOffsets, adm.ListCommittedOffsets} {
				offs, err := list(ctx, topics...)
				require.NoError(b, err)
				require.NoError(b, offs.Error())
			}
			_, err = adm.DescribeAllLogDirs(ctx, nil)
			require.NoError(b, err)
			_, err = adm.DescribeTopicConfigs(ctx, topics...)
			require.NoError(b, err)
			lag, err := adm.Lag(ctx, "dashboard")
			require.NoError(b, err)
			require.NoError(b, lag.Error())
			_, err = adm.DescribeProducers(ctx, md.Topics.TopicsSet())
			require.NoError(b, err)
		}
		poll()
		benchPolls(b, func() int { poll(); return 0 })
	})
	b.Run(name+"/impl=page-frame", func(b *testing.B) {
		o := newObserver(b)
		src := observed.NewSource(o)
		f := web.Focus{Topic: "events"}
		var page web.Frames
		e, _, err := src.Present(f)
		require.NoError(b, err)
		_, _, err = page.Next(e) // the whole update, once
		require.NoError(b, err)
		var clock cpuClock
		size, sent := 0, 0
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			clock.pause(b)
			o.Poll(ctx)
			clock.resume(b)
			e, _, err := src.Present(f)
			if err != nil {
				b.Fatal(err)
			}
			frame, ok, err := page.Next(e)
			if err != nil {
				b.Fatal(err)
			}
			if ok {
				size += len(frame)
				sent++
			}
		}
		clock.report(b)
		if sent > 0 {
			b.SetBytes(int64(size / sent))
		}
		b.ReportMetric(float64(sent)/float64(b.N), "frames/op")
	})
}
