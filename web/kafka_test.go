package web

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestCutClient: "cut client N" cuts client N from every broker (or those
// listed), Kafka's State answers Silent on a cut link of a connected
// client and Serving again after "heal"; a stopped broker refuses.
func TestCutClient(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	term := NewTerminal(l)
	conn := kafkawire.ConnInfo{ID: 1, Broker: 1, ClientID: "kgo"}
	k.ConnOpened(kafkawire.ConnInfo{ID: 1, Broker: 1}) // a connection's client.id comes with its requests
	req := kmsg.NewPtrMetadataRequest()
	k.Submit(1, conn, req, req.AppendTo(nil)) // numbers client "kgo" 1
	states := func() []kafkawire.State {
		k.pump()
		var out []kafkawire.State
		for id := int32(1); id <= 3; id++ {
			c := conn
			c.Broker = id
			out = append(out, k.State(id, c))
		}
		return out
	}
	require.Equal(t, []kafkawire.State{kafkawire.Serving, kafkawire.Serving, kafkawire.Serving}, states())
	require.NoError(t, term.Exec("cut client 1 2", nil, io.Discard))
	if diff := cmp.Diff([]kafkawire.State{kafkawire.Serving, kafkawire.Silent, kafkawire.Serving}, states()); diff != "" {
		t.Errorf("after cut client 1 2 (-want +got):\n%s", diff)
	}
	require.NoError(t, term.Exec("cut client 1", nil, io.Discard))
	require.Equal(t, []kafkawire.State{kafkawire.Silent, kafkawire.Silent, kafkawire.Silent}, states())
	require.NoError(t, term.Exec("heal", nil, io.Discard))
	require.NoError(t, term.Exec("stop 3", nil, io.Discard))
	require.Equal(t, []kafkawire.State{kafkawire.Serving, kafkawire.Serving, kafkawire.Refusing}, states())
	require.ErrorIs(t, term.Exec("cut client x", nil, io.Discard), ErrUsage)
	require.NoError(t, l.Look(nil, func(w *cluster.World) error {
		require.False(t, w.LinkCut(1, cluster.ExternalNode(1)))
		return nil
	}))
}

// TestClientsCannotExhaustMemoryWithCompressedBatches: clients on many
// connections each sending a batch that decompresses a thousandfold (a 60 KB
// gzip stream of 60 MiB of zeros, under kafkalog's 64 MiB cap, which the
// leader must read through as Kafka's LogValidator does) make the process
// hold a bounded amount: the checks run a few at a time
// (cluster.Preparer), and a connection's preparer does not keep a large
// batch's memory for its next request. Before, 32 connections held 4 GB.
func TestClientsCannotExhaustMemoryWithCompressedBatches(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 1.4 GB")
	}
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionGzip)
	b.AppendRecord(0, 0, []byte("k"), make([]byte, 60<<20))
	bomb := b.AppendTo(nil)
	require.Less(t, len(bomb), 100<<10)

	// The garbage earlier tests left (a world of thousands of partitions)
	// is collected first, so that the peak is this test's.
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak.Store(max(peak.Load(), m.HeapInuse))
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	for c := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := kmsg.NewPtrProduceRequest()
			req.SetVersion(9)
			req.Acks, req.TimeoutMillis = 1, 5000
			rt := kmsg.NewProduceRequestTopic()
			rt.Topic = "orders"
			rp := kmsg.NewProduceRequestTopicPartition()
			rp.Partition, rp.Records = int32(c%3), bomb
			rt.Partitions = append(rt.Partitions, rp)
			req.Topics = append(req.Topics, rt)
			k.Submit(1, kafkawire.ConnInfo{ID: uint64(c + 1), Broker: 1, ClientID: "bomb"}, req, req.AppendTo(nil))
		}()
	}
	wg.Wait()
	close(done)
	<-sampled
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("peak heap in use %d MiB; after a GC, with the 24 requests queued, %d MiB", peak.Load()>>20, m.HeapAlloc>>20)
	require.Less(t, m.HeapAlloc, uint64(32<<20), "what the preparers keep after the requests were checked")
	require.Less(t, peak.Load(), uint64(1<<30), "the peak while they were checked (each check at most 64 MiB and its garbage; 24 at once, 1.5 GiB)")
	k.pump() // the world answers them
}

// TestEveryAdvertisedAPIIsServed: every api key and version the wire layer
// advertises by default (kafkawire.DefaultAPIVersions) is one the world
// answers: a request of it, with its defaults, is taken, not refused as
// not served.
func TestEveryAdvertisedAPIIsServed(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1})
	require.NoError(t, err)
	for _, a := range kafkawire.DefaultAPIVersions() {
		if a.Key == 18 {
			continue // ApiVersions: the wire layer answers it
		}
		for v := a.MinVersion; v <= a.MaxVersion; v++ {
			req := kmsg.RequestForKey(a.Key)
			req.SetVersion(v)
			_, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "t", Broker: 1, Key: a.Key, Version: v, Body: req.AppendTo(nil)})
			require.NoError(t, err, "%s v%d", kmsg.NameForKey(a.Key), v)
		}
	}
	require.Empty(t, w.InternalErrors())
}

// TestPageListsBoundedClients: a script that opens clients under new
// client ids by the hundred leaves the page listing every connected one
// and the MaxClientsShown that spoke last, counting the others; each
// listed once, by number.
func TestPageListsBoundedClients(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	const n = 70
	connected := map[int32]bool{}
	for i := range n {
		conn := kafkawire.ConnInfo{ID: uint64(i + 1), Broker: 1, ClientID: fmt.Sprintf("script-%d", i)}
		if i%25 == 3 { // three stay connected, early ones among them
			k.ConnOpened(conn)
			connected[int32(i+1)] = true
		}
		req := kmsg.NewPtrMetadataRequest()
		k.Submit(1, conn, req, req.AppendTo(nil))
		k.pump()
		require.NoError(t, l.Advance(100))
	}
	v, err := l.View(Focus{}, nil)
	require.NoError(t, err)
	var got []int32
	for _, c := range v.Kafka.Clients {
		got = append(got, c.Number)
	}
	var want, idle []int32
	for num := int32(n); num >= 1; num-- {
		if !connected[num] {
			idle = append(idle, num)
		}
	}
	for num := int32(1); num <= n; num++ {
		if connected[num] || slices.Contains(idle[:MaxClientsShown], num) {
			want = append(want, num)
		}
	}
	require.Equal(t, want, got, "the connected ones and the latest %d others", MaxClientsShown)
	require.Equal(t, n-len(want), v.Kafka.Hidden)
}

// TestPageListsBoundedGroups: a script that joins groups under new ids
// by the hundred and goes away leaves the page listing the groups with
// members and, of the others, as many as MaxGroupsShown allows, counting
// the rest.
func TestPageListsBoundedGroups(t *testing.T) {
	l, err := NewLive()
	require.NoError(t, err)
	k := NewKafka(l)
	require.NoError(t, l.Advance(20000)) // the offsets topic's leaders are elected
	const n = 80
	for i := range n {
		req := kmsg.NewPtrJoinGroupRequest()
		req.SetVersion(5)
		req.Group, req.ProtocolType = fmt.Sprintf("script-%02d", i), "consumer"
		req.SessionTimeoutMillis, req.RebalanceTimeoutMillis = 6000, 6000
		p := kmsg.NewJoinGroupRequestProtocol()
		p.Name = "range"
		req.Protocols = append(req.Protocols, p)
		for b := int32(1); b <= 3; b++ { // the coordinator takes it
			k.Submit(b, kafkawire.ConnInfo{ID: uint64(i + 1), Broker: b, ClientID: "script"}, req, req.AppendTo(nil))
		}
		k.pump()
	}
	require.NoError(t, l.Advance(60000)) // the script's members never sync: they are gone
	var all []cluster.GroupInfo
	require.NoError(t, l.Look(nil, func(w *cluster.World) error { all = w.Groups(); return nil }))
	require.Greater(t, len(all), MaxGroupsShown, "the groups the cluster has")
	v, err := l.View(Focus{}, nil)
	require.NoError(t, err)
	require.Len(t, v.Groups, MaxGroupsShown)
	require.Equal(t, len(all)-MaxGroupsShown, v.GroupsHidden)
	for _, name := range []string{"billing", "search-index"} {
		require.True(t, slices.ContainsFunc(v.Groups, func(g GroupView) bool { return g.Name == name }), "%s, with members, is listed", name)
	}
}
