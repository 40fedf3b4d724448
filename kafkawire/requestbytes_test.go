package kafkawire_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// bigProduce is a Produce of one record of n bytes, acks=all.
func bigProduce(n int) *kmsg.ProduceRequest {
	return produce(7, -1, "q", batch(strings.Repeat("x", n)))
}

// waitHeld waits until the server holds at least n bytes of requests.
func waitHeld(t *testing.T, srv *kafkawire.Server, n int64) {
	t.Helper()
	require.Eventually(t, func() bool { return srv.QueuedRequestBytes() >= n }, patience, 5*time.Millisecond,
		"the server holds %d bytes of requests, want %d", srv.QueuedRequestBytes(), n)
}

// TestQueuedMaxRequestBytes: requests read and not yet answered hold
// bytes of queued.max.request.bytes across every connection; once none is
// left (one frame may go past it, as with Kafka's non-strict memory pool)
// connections read nothing more, and go on when answers free bytes; a
// connection closed while it waits or with requests queued gives its bytes
// back.
func TestQueuedMaxRequestBytes(t *testing.T) {
	const limit = 1 << 20
	srv, mem, sink := serve(t, kafkawire.Config{SocketRequestMaxBytes: limit, QueuedMaxRequestBytes: limit})
	mem.CreateTopic("q")
	mem.SetLeader(1)
	mem.Hold()

	a, b, c, gone := dial(t, srv, 1), dial(t, srv, 2), dial(t, srv, 3), dial(t, srv, 1)
	a.send(bigProduce(600 << 10))
	waitHeld(t, srv, 600<<10)
	b.send(bigProduce(600 << 10)) // some of the bound is left: taken, past it
	waitHeld(t, srv, 1200<<10)
	held := srv.QueuedRequestBytes()
	c.send(bigProduce(300 << 10))
	require.Eventually(t, func() bool { return strings.Contains(strings.Join(sink.all(), "\n"), "waiting:") }, patience, 5*time.Millisecond)
	gone.send(bigProduce(10 << 10))
	require.Eventually(t, func() bool { return strings.Count(strings.Join(sink.all(), "\n"), "waiting:") == 2 }, patience, 5*time.Millisecond)
	require.Equal(t, held, srv.QueuedRequestBytes(), "the waiting connections took nothing")
	gone.nc.Close()
	c.requireQuiet()

	mem.Release()
	p := a.recv().(*kmsg.ProduceResponse)
	require.Zero(t, p.Topics[0].Partitions[0].ErrorCode)
	b.recv() // brokers 2 and 3 lead nothing: NOT_LEADER_OR_FOLLOWER
	c.recv()
	require.Eventually(t, func() bool { return srv.QueuedRequestBytes() == 0 }, patience, 5*time.Millisecond,
		"bytes still held after every request was answered: %d", srv.QueuedRequestBytes())
}

// TestQueuedMaxRequestBytesUnbounded: a negative bound is Kafka's -1,
// none; and the bound may not be below socket.request.max.bytes, as
// KafkaConfig refuses it.
func TestQueuedMaxRequestBytesUnbounded(t *testing.T) {
	srv, mem, sink := serve(t, kafkawire.Config{SocketRequestMaxBytes: 1 << 20, QueuedMaxRequestBytes: -1})
	mem.CreateTopic("q")
	mem.SetLeader(1)
	mem.Hold()
	var cs []*client
	for range 3 {
		c := dial(t, srv, 1)
		c.send(bigProduce(600 << 10))
		cs = append(cs, c)
	}
	waitHeld(t, srv, 1800<<10)
	require.NotContains(t, strings.Join(sink.all(), "\n"), "waiting:")
	mem.Release()
	for _, c := range cs {
		c.recv()
	}

	_, err := kafkawire.New(kafkawire.Config{Backend: mem, Listeners: kafkawire.LoopbackListeners(1), SocketRequestMaxBytes: 1 << 20, QueuedMaxRequestBytes: 1 << 19})
	require.ErrorIs(t, err, kafkawire.ErrConfig)
}
