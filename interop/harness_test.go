package interop

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/web"
)

var seedFlag = flag.Uint64("interop.seed", 0, "seed of the interop tests' records and fault times (0: from the clock)")

// requireClients is set in CI: a client that is not installed fails its
// test instead of skipping it.
var requireClients = os.Getenv("KAFKALIVE_REQUIRE_CLIENTS") == "1"

// liveCluster is the page's default world served to Kafka clients on free
// loopback ports, its clock advanced speedup times faster than the wall
// clock.
type liveCluster struct {
	live *web.Live
	srv  *kafkawire.Server
	term *web.Terminal
}

func startLive(t *testing.T, speedup int64) *liveCluster {
	t.Helper()
	live, err := web.NewLiveWallClock(nil, func() int64 { return time.Now().UnixMilli() })
	require.NoError(t, err)
	return serveLive(t, live, speedup)
}

// serveLive serves live's world as startLive does.
func serveLive(t *testing.T, live *web.Live, speedup int64) *liveCluster {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				// the world follows the wall clock even when a tick is late
				ms := now.Sub(last).Milliseconds()
				if ms <= 0 {
					continue
				}
				last = last.Add(time.Duration(ms) * time.Millisecond)
				_ = live.Advance(ms * speedup)
			}
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return &liveCluster{live: live, srv: srv, term: web.NewTerminal(live)}
}

// bootstrap is the address of broker id's listener.
func (lc *liveCluster) bootstrap(id int32) string { return lc.srv.Addr(id).String() }

// bootstraps are the three brokers' addresses, comma separated.
func (lc *liveCluster) bootstraps() string {
	return lc.bootstrap(1) + "," + lc.bootstrap(2) + "," + lc.bootstrap(3)
}

// world runs fn on the live world.
func (lc *liveCluster) world(t *testing.T, fn func(w *cluster.World) error) {
	t.Helper()
	require.NoError(t, lc.live.Do(nil, fn))
}

// exec types line in the world's terminal and returns what it printed.
func (lc *liveCluster) exec(t *testing.T, line string) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, lc.term.Exec(line, nil, &out), "%s:\n%s", line, out.String())
	return out.String()
}

// kgoClient is a franz-go client of lc for the tests' own setup.
func (lc *liveCluster) kgoClient(t *testing.T, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	opts = append([]kgo.Opt{kgo.SeedBrokers(lc.bootstrap(2)), kgo.ProducerLinger(0), kgo.FetchMaxWait(300 * time.Millisecond)}, opts...)
	cl, err := kgo.NewClient(opts...)
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return cl
}

// createTopic creates topic with partitions partitions, replication factor 3.
func (lc *liveCluster) createTopic(t *testing.T, ctx context.Context, topic string, partitions int32) {
	t.Helper()
	cl := lc.kgoClient(t)
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, partitions, 3
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	require.NoError(t, err)
	require.Equal(t, int16(0), resp.Topics[0].ErrorCode, "create %s", topic)
	// the topic as kafka-topics describes it
	out := lc.exec(t, "kafka-topics --describe --topic "+topic)
	require.Contains(t, out, fmt.Sprintf("PartitionCount: %d\tReplicationFactor: 3", partitions), "kafka-topics:\n%s", out)
}

// rec is one record as sent or received.
type rec struct {
	Key, Value []byte
	Partition  int32
	Offset     int64 // -1 when the client does not say
}

func (r rec) String() string {
	return fmt.Sprintf("%d@%d %s=%s", r.Partition, r.Offset, r.Key, r.Value)
}

// seedOf returns the test's seed and logs how to replay it.
func seedOf(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if *seedFlag != 0 {
		seed = *seedFlag
	}
	name := strings.SplitN(t.Name(), "/", 2)[0]
	t.Logf("seed %d (replay: cd interop && go test -run '^%s$' -interop.seed=%d)", seed, name, seed)
	return seed
}

// printable are the bytes records are made of: no separator kcat, the
// Python scripts or kafka-dump-log's text would read.
const printable = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.!#%&()[]{}<>+*/=?@^~"

// records draws n keyed records (keys of a small set, so that keys
// repeat; values of 1 to 300 bytes) tagged with tag.
func records(rng *rand.Rand, tag string, n int) []rec {
	out := make([]rec, n)
	for i := range out {
		v := make([]byte, 1+rng.IntN(300))
		for j := range v {
			v[j] = printable[rng.IntN(len(printable))]
		}
		v = append(fmt.Appendf(nil, "%s-%03d-", tag, i), v...)
		out[i] = rec{Key: fmt.Appendf(nil, "key-%d", rng.IntN(12)), Value: v, Partition: -1, Offset: -1}
	}
	return out
}

// dumpLog reads topic-partition's first segment on its leader through the
// world's terminal (kafka-dump-log --print-data-log) and returns its
// records.
func (lc *liveCluster) dumpLog(t *testing.T, topic string, partition int32) []rec {
	t.Helper()
	out := lc.exec(t, fmt.Sprintf("kafka-dump-log --files %s/%s-%d/00000000000000000000.log --print-data-log", cluster.LogDir, topic, partition))
	var got []rec
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| offset: ") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "| offset: "))
		off, err := strconv.ParseInt(f[0], 10, 64)
		require.NoError(t, err, "dump-log line %q", line)
		_, after, ok := strings.Cut(line, " key: ")
		require.True(t, ok, "dump-log line %q has no key", line)
		k, v, ok := strings.Cut(after, " payload: ")
		require.True(t, ok, "dump-log line %q has no payload", line)
		got = append(got, rec{Key: []byte(k), Value: []byte(v), Partition: partition, Offset: off})
	}
	return got
}

// committed reads group's committed offsets of topic through the world's
// terminal (kafka-consumer-groups --describe): partition -> offset.
func (lc *liveCluster) committed(t *testing.T, group, topic string) map[int32]int64 {
	t.Helper()
	out := lc.exec(t, "kafka-consumer-groups --describe --group "+group)
	got := map[int32]int64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != group || f[1] != topic {
			continue
		}
		p, err1 := strconv.ParseInt(f[2], 10, 32)
		o, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			continue // "-": nothing committed
		}
		got[int32(p)] = o
	}
	return got
}

// sortRecs orders records by partition and offset.
func sortRecs(rs []rec) []rec {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b rec) int {
		if a.Partition != b.Partition {
			return int(a.Partition - b.Partition)
		}
		if a.Offset != b.Offset {
			if a.Offset < b.Offset {
				return -1
			}
			return 1
		}
		return bytes.Compare(a.Value, b.Value)
	})
	return out
}
