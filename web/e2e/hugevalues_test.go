package e2e

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/web"
)

// hugeValue is the size of each record's value: 60 MiB, under kafkalog's
// 64 MiB cap on a batch's decompressed records, of zeros that gzip makes
// about 60 KB, under the topic's max.message.bytes.
const hugeValue = 60 << 20

// produceRaw sends one Produce request (v9, acks=all) of batch to
// topic-partition on the listener at addr and fails the test unless the
// broker takes it.
func produceRaw(t *testing.T, addr, topic string, partition int32, batch []byte, corr int32) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer nc.Close()
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = -1, 30_000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition, rp.Records = partition, batch
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID("huge-values"))
	_, err = nc.Write(f.AppendRequest(nil, req, corr))
	require.NoError(t, err)
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(60*time.Second)))
	var size [4]byte
	_, err = io.ReadFull(nc, size[:])
	require.NoError(t, err)
	frame := make([]byte, binary.BigEndian.Uint32(size[:]))
	_, err = io.ReadFull(nc, frame)
	require.NoError(t, err)
	resp := kmsg.NewPtrProduceResponse()
	resp.SetVersion(9)
	require.NoError(t, resp.ReadFrom(frame[5:])) // correlation id, the header's tagged fields
	require.Equal(t, int16(0), resp.Topics[0].Partitions[0].ErrorCode, "the produce of batch %d", corr)
}

// TestHugeGzipValuesAreShownFromTheirFirstBytes: a client sends 8 gzip
// batches of one 60 MiB record each (60 KB on the wire); the page then
// shows that partition, each replica holding 8 records, the newest with
// their first bytes and their size, while the process stays well under 1.5 GB: the page's
// view reads each value's preview, never a whole value.
func TestHugeGzipValuesAreShownFromTheirFirstBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 8 values of 60 MiB")
	}
	ctx, live := page(t, 1)
	kctx, stopKafka := context.WithCancel(context.Background())
	t.Cleanup(stopKafka)
	ls := []kafkawire.Listener{{NodeID: 1, Addr: "127.0.0.1:0"}, {NodeID: 2, Addr: "127.0.0.1:0"}, {NodeID: 3, Addr: "127.0.0.1:0"}}
	ks, err := web.StartKafka(kctx, live, ls, nil)
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, web.NewTerminal(live).Exec("kafka-topics --create --topic huge --partitions 1 --replication-factor 3", nil, &out), out.String())
	var leader int32
	require.NoError(t, live.Look(nil, func(w *cluster.World) error {
		leader = w.PartitionLeader("huge", 0)
		return nil
	}))

	var peak atomic.Uint64
	done, sampled := make(chan struct{}), make(chan struct{})
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
	defer func() {
		select {
		case <-done:
		default:
			close(done)
		}
	}()

	start := time.Now()
	for i := range 8 {
		var b kafkalog.RecordBatch
		b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
		b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionGzip)
		b.AppendRecord(0, 0, []byte(fmt.Sprintf("k%d", i)), make([]byte, hugeValue))
		batch := b.AppendTo(nil)
		require.Less(t, len(batch), 100<<10)
		produceRaw(t, ks.Addr(leader).String(), "huge", 0, batch, int32(i+1))
	}
	produced := time.Since(start)

	start = time.Now()
	shown := fmt.Sprintf(`document.querySelectorAll('#detail .rec[data-value*="(%d bytes)"]').length`, hugeValue)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(() => { const r = document.querySelector('#parts tr[data-topic="huge"][data-partition="0"]'); if (r) r.click(); return !!r; })()`,
		chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the table never listed huge-0")
	// each replica's row says it holds 8 records and shows the newest with
	// their size (as many as fit the row)
	all := `(document.querySelector("#detail").textContent.match(/\b8 records/g) || []).length`
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](shown+` >= 3 && `+all+` >= 3`, chromedp.WithPollingTimeout(60*time.Second)))
	require.NoError(t, err, "the page shows %d records with their size, %d replicas holding 8", eval[int](t, ctx, shown), eval[int](t, ctx, all))
	took := time.Since(start)
	time.Sleep(2 * time.Second) // a few more updates of the same view
	close(done)
	<-sampled
	t.Logf("8 gzip values of 60 MiB: produced in %v, shown %v after the click; peak heap in use %d MiB", produced.Round(time.Millisecond), took.Round(time.Millisecond), peak.Load()>>20)
	require.Less(t, peak.Load(), uint64(1500<<20), "the peak heap while the values were produced and shown")
}
