package broker

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"
)

// Clients come and go with client ids of their own, send requests (some
// of which wait: a long-polling fetch) and fall silent for random spans of
// the world's time. At every step the brokers remember the clients sorted
// by number, never more than their limit (or those with a request
// waiting), every client with a request waiting, every client heard from
// within ClientExpiryMs while no more than the limit's three quarters
// were, and none idle for ClientExpiryMs plus a sweep; and what they
// remember of a client (its requests by api) is all it sent since it was
// last forgotten.
//
// Replay a failure with
// go test ./cluster/internal/broker -run TestClientsComeAndGo -rapid.seed=SEED.
func TestClientsComeAndGo(tt *testing.T) {
	rapid.Check(tt, func(t *rapid.T) {
		f := newFakeEnv(3, 2)
		for _, b := range f.brokers {
			require.NoError(t, b.Start(f))
		}
		f.quiet()
		limit := rapid.IntRange(2, 40).Draw(t, "client limit")
		f.rq.maxClients = limit
		line := func(s string) kmsg.Request {
			cmd, cmdArgs, err := datadriven.ParseLine(s)
			require.NoError(t, err)
			return args{t: tt, d: &datadriven.TestData{Cmd: cmd, CmdArgs: cmdArgs}}.request()
		}
		model := map[int32]*seenClient{} // what each client sent since the brokers last forgot it
		send := func(n int32, req kmsg.Request) {
			if model[n] == nil {
				model[n] = &seenClient{requests: map[string]int{}}
			}
			model[n].lastMs = f.now
			model[n].requests[kmsg.NameForKey(req.Key())]++
			x := &Request{Client: n, ClientID: fmt.Sprintf("client-%d", n), Broker: 1, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
			if _, err := f.rq.Serve(f, f.brokers, x); err != nil {
				t.Fatalf("client %d: %v", n, err)
			}
			f.quiet()
			f.rq.Tick(f, f.brokers)
		}
		send(1, line("create-topics topic=t partitions=1 rf=3"))
		f.run(200)
		next := int32(1)
		for step := range rapid.IntRange(1, 60).Draw(t, "steps") {
			switch rapid.IntRange(0, 4).Draw(t, "action") {
			case 0, 1, 2:
				n := rapid.Int32Range(1, next+1).Draw(t, "client")
				next = max(next, n)
				var req kmsg.Request
				switch rapid.IntRange(0, 2).Draw(t, "request") {
				case 0:
					req = line("metadata topics=(t)")
				case 1:
					req = line("produce topic=t acks=1 records=2")
				default:
					req = line(fmt.Sprintf("fetch topic=t offset=0 max-wait=%d min-bytes=100000000", rapid.IntRange(0, 3_000_000).Draw(t, "max wait")))
				}
				send(n, req)
			case 3:
				f.run(rapid.Int64Range(10, 2000).Draw(t, "run ms"))
			default:
				// a long silence: the clock jumps, then the world ticks
				f.now += rapid.Int64Range(0, 2*ClientExpiryMs).Draw(t, "silence ms")
				f.run(10)
			}
			checkClients(t, f, model, limit, step)
			for n := range model {
				if f.rq.clientAt(n) == nil {
					delete(model, n)
				}
			}
		}
	})
}

// seenClient is what a client sent since the brokers last forgot it.
type seenClient struct {
	lastMs   int64
	requests map[string]int
	// waited says whether a request of its waited at the step before,
	// and answeredMs is the time of the first step at which none did
	// since: a sweep keeps a client whose request waits, and its silence
	// begins with the answer (between the two steps).
	waited     bool
	answeredMs int64
}

// checkClients checks what the brokers remember of the clients against
// what they sent (model: the clients remembered at the step before and
// those that sent since).
func checkClients(t *rapid.T, f *fakeEnv, model map[int32]*seenClient, limit, step int) {
	cs := f.rq.Clients()
	if !slices.IsSortedFunc(cs, func(a, b Client) int { return int(a.Number - b.Number) }) {
		t.Fatalf("step %d: the clients are not sorted by number", step)
	}
	waits := map[int32]bool{}
	for _, p := range f.rq.pending {
		waits[p.client] = true
		if f.rq.clientAt(p.client) == nil {
			t.Fatalf("step %d: client %d has a request waiting and was forgotten", step, p.client)
		}
	}
	if len(cs) > max(limit, len(waits)) {
		t.Fatalf("step %d: %d clients remembered, limit %d, %d with a request waiting", step, len(cs), limit, len(waits))
	}
	for n, s := range model {
		if s.waited && !waits[n] {
			s.answeredMs = f.now
		}
		s.waited = waits[n]
	}
	recent := 0
	for _, s := range model {
		if s.lastMs >= f.now-ClientExpiryMs {
			recent++
		}
	}
	for n, s := range model {
		c := f.rq.clientAt(n)
		switch {
		case c == nil && s.lastMs >= f.now-ClientExpiryMs && recent <= limit*3/4:
			t.Fatalf("step %d: client %d, heard from %d ms ago, was forgotten with %d clients heard from within an hour (limit %d)",
				step, n, f.now-s.lastMs, recent, limit)
		case c == nil:
		case max(s.lastMs, s.answeredMs) < f.now-ClientExpiryMs-ClientSweepMs && !waits[n]:
			t.Fatalf("step %d: client %d, silent for %d ms, is still remembered", step, n, f.now-s.lastMs)
		case c.LastMs != s.lastMs || fmt.Sprint(c.Requests) != fmt.Sprint(s.requests):
			t.Fatalf("step %d: client %d remembered as last heard at %d with requests %v; it sent %v, the last at %d",
				step, n, c.LastMs, c.Requests, s.requests, s.lastMs)
		}
	}
	for _, c := range cs {
		if model[c.Number] == nil {
			t.Fatalf("step %d: client %d is remembered but never sent anything since it was forgotten", step, c.Number)
		}
	}
}

// A client acknowledged batch after batch keeps one run per partition
// while its batches follow one another there (other partitions' batches
// in between), and at most MaxAckedRanges runs when they do not, the
// newest; a sweep keeps all clients' runs within MaxAckedRangesTotal.
func TestAckedRunsAreBounded(t *testing.T) {
	var c Client
	a, b := tp{Topic: "t", Partition: 0}, tp{Topic: "t", Partition: 1}
	for i := range int64(100) {
		c.noteAcked(a, 10*i, 10)
		c.noteAcked(b, 5*i, 5)
	}
	require.Equal(t, []ackedRange{{tp: a, start: 0, end: 1000}, {tp: b, start: 0, end: 500}}, c.acked, "interleaved partitions: one run each")
	for i := range int64(3 * MaxAckedRanges) {
		c.noteAcked(a, 2000+2*i, 1) // a gap after each
	}
	require.Len(t, c.acked, MaxAckedRanges)
	require.Equal(t, ackedRange{tp: a, start: 2000 + 2*(3*MaxAckedRanges-1), end: 2000 + 2*(3*MaxAckedRanges-1) + 1}, c.acked[len(c.acked)-1], "the newest run is kept")

	var rq Requests
	f := newFakeEnv(1, 1)
	for n := range int32(200) {
		rq.client(f, &Request{Client: n + 1, Key: 0})
		c := rq.clientAt(n + 1)
		for i := range int64(MaxAckedRanges) {
			c.noteAcked(a, 2*i, 1)
		}
	}
	rq.forgetIdle(f)
	total := 0
	for _, c := range rq.Clients() {
		total += len(c.acked)
	}
	if total > MaxAckedRangesTotal {
		t.Fatalf("after a sweep the clients keep %d runs of acknowledged offsets, more than MaxAckedRangesTotal (%d)", total, MaxAckedRangesTotal)
	}
}
