package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web/observed"
)

// BenchmarkObservePoll is one poll of a cluster of 2,000 partitions on
// three brokers (franz-go's kfake, in this process: the CPU time counts
// the brokers' side too, an upper bound of the observer's own), with a
// group that committed an offset on every partition: impl=observe is
// observe.Observer.Poll (everything the page shows: each replica's log
// end, the leaders' log start, high watermark and last stable offset, log
// dirs, configs, groups with lag, the brokers, the quorum); impl=kadm is
// what a lag dashboard asks with kadm (Metadata, the start and end
// offsets, the groups' lag), the peer. A poll a second within 5% of a core
// is at most 50 ms of CPU a poll (cpu-ns/op). impl=page-view is the
// observed page's update of that cluster (GET /api/view, the newest
// sample as the shared page's whole update): ten a second must take well
// under 100 ms of CPU. BenchmarkObserveWorld measures the same on a
// kafkalive world, with the page's frames.
func BenchmarkObservePoll(b *testing.B) {
	const partitions = 2000
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(partitions, "events"))
	require.NoError(b, err)
	defer c.Close()
	ctx := context.Background()
	setup, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	require.NoError(b, err)
	defer setup.Close()
	adm := kadm.NewClient(setup)
	offsets := kadm.Offsets{}
	for p := range int32(partitions) {
		offsets.Add(kadm.Offset{Topic: "events", Partition: p, At: int64(p % 7), LeaderEpoch: -1})
	}
	_, err = adm.CommitOffsets(ctx, "dashboard", offsets)
	require.NoError(b, err)

	b.Run(fmt.Sprintf("partitions=%d/impl=observe", partitions), func(b *testing.B) {
		o, err := observe.New(observe.Config{Bootstrap: c.ListenAddrs(), PollTimeout: 10 * time.Second})
		require.NoError(b, err)
		defer o.Close()
		// kfake has no metadata quorum: DescribeQuorum is its one refusal
		answered := func(s *observe.Sample) {
			if len(s.Unanswered) != 1 || !strings.HasPrefix(s.Unanswered[0], "DescribeQuorum") {
				b.Fatalf("unanswered: %q", s.Unanswered)
			}
		}
		s := o.Poll(ctx) // warm: connections, versions
		answered(s)
		require.Len(b, s.Partitions, partitions)
		benchPolls(b, func() int {
			s := o.Poll(ctx)
			answered(s)
			return s.Requests
		})
	})
	b.Run(fmt.Sprintf("partitions=%d/impl=page-view", partitions), func(b *testing.B) {
		// the observed page's whole update of the newest sample
		// (GET /api/view), what the page asks when it opens
		o, err := observe.New(observe.Config{Bootstrap: c.ListenAddrs(), PollTimeout: 10 * time.Second})
		require.NoError(b, err)
		defer o.Close()
		o.Poll(ctx)
		page := observed.NewServer(o)
		req := httptest.NewRequest("GET", "http://127.0.0.1/api/view?topic=events", nil)
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}))
		size := 0
		benchPolls(b, func() int {
			w := httptest.NewRecorder()
			page.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
			size = w.Body.Len()
			return 0
		})
		b.SetBytes(int64(size))
	})
	b.Run(fmt.Sprintf("partitions=%d/impl=kadm", partitions), func(b *testing.B) {
		cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
		require.NoError(b, err)
		defer cl.Close()
		adm := kadm.NewClient(cl)
		poll := func() {
			_, err := adm.Metadata(ctx)
			require.NoError(b, err)
			_, err = adm.ListStartOffsets(ctx)
			require.NoError(b, err)
			_, err = adm.ListEndOffsets(ctx)
			require.NoError(b, err)
			lag, err := adm.Lag(ctx, "dashboard")
			require.NoError(b, err)
			require.NoError(b, lag.Error())
		}
		poll()
		benchPolls(b, func() int { poll(); return 0 })
	})
}

// benchPolls times b.N polls by the wall clock and the process's CPU time,
// and reports the requests a poll wrote (when poll counts them).
func benchPolls(b *testing.B, poll func() (requests int)) {
	runtime.GC()
	var clock cpuClock
	b.ReportAllocs()
	b.ResetTimer()
	clock.start()
	requests := 0
	for range b.N {
		requests += poll()
	}
	clock.report(b)
	if requests > 0 {
		b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
	}
}
