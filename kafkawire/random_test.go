package kafkawire_test

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

var (
	wireSeed = flag.Uint64("wire.seed", 0, "seed of TestRandomStreams (0: from the clock)")
	wireN    = flag.Int("wire.n", 150, "cases of TestRandomStreams")
)

// randomRequest is a valid request the in-memory backend answers, at a random
// served version.
func randomRequest(rng *rand.Rand) kmsg.Request {
	var req kmsg.Request
	switch rng.IntN(8) {
	case 0:
		r := kmsg.NewPtrApiVersionsRequest()
		r.ClientSoftwareName, r.ClientSoftwareVersion = "rand", "0.1"
		req = r
	case 1:
		req = metadata(0, "r")
	case 2:
		req = produce(0, int16(-1+rng.IntN(2)*2), "r", batch("x", "y")) // acks -1 or 1
	case 3:
		req = fetch(0, "r", [16]byte{}, int64(rng.IntN(3)), int32(rng.IntN(200)))
	case 4:
		r := kmsg.NewPtrListOffsetsRequest()
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = "r"
		rp := kmsg.NewListOffsetsRequestTopicPartition()
		rp.Timestamp = -1 - int64(rng.IntN(2))
		rt.Partitions = []kmsg.ListOffsetsRequestTopicPartition{rp}
		r.Topics = []kmsg.ListOffsetsRequestTopic{rt}
		req = r
	case 5:
		req = kmsg.NewPtrInitProducerIDRequest()
	case 6:
		r := kmsg.NewPtrCreateTopicsRequest()
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = fmt.Sprintf("c%d", rng.IntN(5)), 1, 3
		r.Topics = []kmsg.CreateTopicsRequestTopic{rt}
		req = r
	case 7: // a frame up to four times firstChunk: read in growing pieces, or at once after a larger one
		req = produce(0, 1, "r", batch(string(make([]byte, rng.IntN(256<<10)))))
	}
	for _, a := range kafkawire.DefaultAPIVersions() {
		if a.Key == req.Key() {
			req.SetVersion(a.MinVersion + int16(rng.IntN(int(a.MaxVersion-a.MinVersion)+1)))
		}
	}
	return req
}

// readAll reads response frames until the connection ends.
func (c *client) readAll() (frames [][]byte, err error) {
	for {
		b, err := c.readFrame(patience)
		if err != nil {
			return frames, err
		}
		frames = append(frames, b)
	}
}

// TestRandomStreams: valid requests split across random writes are all
// answered in order; a stream cut at a random byte gets the answers to the
// whole requests before the cut, then a close; random bytes and randomly
// damaged requests end in a close, never a panic. All the while a connection
// holds half a request and every other connection is served.
func TestRandomStreams(t *testing.T) {
	seed := *wireSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d; replay: go test ./kafkawire -run TestRandomStreams -wire.seed=%d -wire.n=%d", seed, seed, *wireN)
	rng := rand.New(rand.NewPCG(seed, 0))
	srv, mem, _ := serve(t, kafkawire.Config{SocketRequestMaxBytes: 1 << 20})
	mem.CreateTopic("r")

	stalled := dial(t, srv, 1)
	half := stalled.frame(metadata(4, "r"))
	require.NoError(t, stalled.write(half[:len(half)-1]))

	for i := range *wireN {
		kind := []string{"split", "cut", "random", "damaged"}[rng.IntN(4)]
		c := dial(t, srv, int32(1+rng.IntN(3)))
		var stream []byte
		var ends []int // end of each frame in stream
		for range 1 + rng.IntN(8) {
			stream = append(stream, c.frame(randomRequest(rng))...)
			ends = append(ends, len(stream))
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("case %d (%s), seed %d: %s", i, kind, seed, fmt.Sprintf(format, args...))
		}
		switch kind {
		case "split":
			for len(stream) > 0 {
				n := 1 + rng.IntN(len(stream))
				if err := c.write(stream[:n]); err != nil {
					fail("write: %v", err)
				}
				stream = stream[n:]
			}
			var got, want []int16
			for _, req := range c.sent {
				want = append(want, req.Key())
			}
			for len(c.sent) > 0 {
				got = append(got, c.recv().Key())
			}
			if diff := cmp.Diff(want, got); diff != "" {
				fail("response keys (-want +got):\n%s", diff)
			}
		case "cut":
			cut := rng.IntN(len(stream))
			if err := c.write(stream[:cut]); err != nil {
				fail("write: %v", err)
			}
			c.nc.(*net.TCPConn).CloseWrite()
			whole := 0
			for _, e := range ends {
				if e <= cut {
					whole++
				}
			}
			frames, _ := c.readAll()
			if len(frames) != whole {
				fail("%d responses to %d whole requests before byte %d", len(frames), whole, cut)
			}
			for j, b := range frames {
				decodeResponse(t, b, c.sent[j], int32(j+1))
			}
		case "random", "damaged":
			if kind == "random" {
				stream = make([]byte, rng.IntN(300))
				for j := range stream {
					stream[j] = byte(rng.UintN(256))
				}
				if len(stream) >= 4 && rng.IntN(2) == 0 {
					binary.BigEndian.PutUint32(stream, uint32(rng.IntN(len(stream))))
				}
			} else {
				for range 1 + rng.IntN(4) {
					stream[rng.IntN(len(stream))] = byte(rng.UintN(256))
				}
			}
			if err := c.write(stream); err != nil {
				fail("write: %v", err)
			}
			c.nc.(*net.TCPConn).CloseWrite()
			if _, err := c.readAll(); err == nil {
				fail("the connection did not end")
			}
		}
		c.nc.Close()
	}
	healthy(t, srv, 1)
	require.NoError(t, stalled.closedErr(time.Millisecond), "the stalled connection is still open")
}

// TestFrameAllocationBounded: a size prefix alone never sizes an allocation:
// connections announcing 100 MiB frames and sending a few bytes cost the server
// the bytes that came plus a 64 KiB buffer each, not 100 MiB each.
func TestFrameAllocationBounded(t *testing.T) {
	srv, _, _ := serve(t, kafkawire.Config{})
	const conns = 16
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var cs []*client
	for range conns {
		c := dial(t, srv, 1)
		b := binary.BigEndian.AppendUint32(nil, 100<<20)
		require.NoError(t, c.write(append(b, make([]byte, 1000)...)))
		cs = append(cs, c)
	}
	for _, c := range cs {
		c.nc.Close()
	}
	require.Eventually(t, func() bool { return len(srv.Connections()) == 0 }, patience, 10*time.Millisecond)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d connections announcing 100 MiB: %d bytes allocated", conns, allocated)
	require.Less(t, allocated, uint64(conns*(1<<20)), "allocation follows the bytes present")
}

// TestFrameAllocationFollowsDelivered: a connection that has delivered a
// frame of n bytes gets the next frame's buffer at up to 2n at once, so a
// producer's batches are read without regrowing, while a stalled size prefix
// still costs no more than twice what the connection sent before it; a frame
// larger than that still arrives whole (the buffer grows as bytes come).
func TestFrameAllocationFollowsDelivered(t *testing.T) {
	srv, _, _ := serve(t, kafkawire.Config{})
	const conns, size = 8, 256 << 10
	produce := func(n int) *kmsg.ProduceRequest {
		req := kmsg.NewPtrProduceRequest()
		req.SetVersion(7)
		req.Acks, req.TimeoutMillis = 1, 1000
		rt := kmsg.NewProduceRequestTopic()
		rt.Topic = "big"
		rp := kmsg.NewProduceRequestTopicPartition()
		rp.Records = make([]byte, n)
		rt.Partitions = append(rt.Partitions, rp)
		req.Topics = append(req.Topics, rt)
		return req
	}
	var cs []*client
	for range conns {
		c := dial(t, srv, 1)
		c.send(produce(size))
		require.IsType(t, &kmsg.ProduceResponse{}, c.recv(), "a %d-byte frame is answered", size)
		cs = append(cs, c)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, c := range cs {
		b := binary.BigEndian.AppendUint32(nil, 100<<20)
		require.NoError(t, c.write(append(b, make([]byte, 1000)...)))
	}
	for _, c := range cs {
		c.nc.Close()
	}
	require.Eventually(t, func() bool { return len(srv.Connections()) == 0 }, patience, 10*time.Millisecond)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d connections that delivered %d bytes, announcing 100 MiB: %d bytes allocated", conns, size, allocated)
	require.Less(t, allocated, uint64(conns*(2*size+(1<<20))), "allocation follows the bytes delivered")

	// larger than twice the largest delivered: the buffer grows from 2n
	c := dial(t, srv, 1)
	c.send(produce(size))
	require.IsType(t, &kmsg.ProduceResponse{}, c.recv())
	c.send(produce(5 * size))
	resp, ok := c.recv().(*kmsg.ProduceResponse)
	require.True(t, ok, "a frame five times the last is read whole and answered")
	require.Len(t, resp.Topics, 1)
}

// TestDecodeAmplification measures how many bytes kmsg allocates per byte of a
// request built to allocate the most: a Metadata v4 request of empty topic
// names, and a Produce request of empty partitions. Every array length kmsg
// reads is checked against the bytes left, so the factor is a constant.
func TestDecodeAmplification(t *testing.T) {
	versions, err := kafkawire.NewVersions(kafkawire.DefaultAPIVersions())
	require.NoError(t, err)
	const n = 100000
	meta := append(header(3, 4, 1, str16("c"), nil), binary.BigEndian.AppendUint32(nil, n)...)
	for range n {
		meta = append(meta, 0, 0) // an empty topic name
	}
	meta = append(meta, 0)
	prod := append(header(0, 3, 1, str16("c"), nil), 0xff, 0xff, 0, 1, 0, 0, 0, 0)
	prod = append(prod, 0, 0, 0, 1, 0, 1, 't')
	prod = binary.BigEndian.AppendUint32(prod, n/8)
	for range n / 8 {
		prod = append(prod, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff) // partition 0, null records
	}
	for name, frame := range map[string][]byte{"Metadata": meta, "Produce": prod} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, req, err := versions.Decode(frame)
		runtime.ReadMemStats(&after)
		require.NoError(t, err, name)
		require.NotNil(t, req)
		factor := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(frame))
		t.Logf("%s: %d bytes decode with %.1f bytes allocated per byte", name, len(frame), factor)
		require.Less(t, factor, 64.0, name)
	}
}
