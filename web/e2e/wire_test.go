package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/web"
)

// wirePage opens the page of a world whose brokers listen for Kafka
// clients, with its wire panel open and recording: the page's context,
// the listeners' context and server.
func wirePage(t *testing.T) (context.Context, context.Context, *kafkawire.Server) {
	ctx, live := page(t, 1)
	kctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	ks, err := web.StartKafka(kctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#wire summary`), clickNow(`#wire summary`)))
	time.Sleep(300 * time.Millisecond) // the panel's first ask starts the recording
	return ctx, kctx, ks
}

// TestWirePanelShowsAClientsRequests opens the wire panel of a page whose
// brokers listen for Kafka clients, and finds a kgo client's requests in
// it, decoded: its ListOffsets with the partitions asked and the offsets
// answered.
func TestWirePanelShowsAClientsRequests(t *testing.T) {
	ctx, kctx, ks := wirePage(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(ks.Addr(1).String()), kgo.ClientID("e2e-wire"))
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	_, err = kadm.NewClient(cl).ListEndOffsets(kctx, "orders")
	require.NoError(t, err)
	waitText(t, ctx, "#wire .wire-rows", "ListOffsets v")
	waitText(t, ctx, "#wire .wire-rows", "e2e-wire → broker")
	waitText(t, ctx, "#wire .wire-rows", "at LATEST")
	screenshot(t, ctx, "wire-panel")
}

// TestJourneyLinksToTheWire: with the wire panel open, a record a kgo
// client produces is drawn; its journey links to the Produce that carried
// it, and the link opens the panel at that entry, marked.
func TestJourneyLinksToTheWire(t *testing.T) {
	ctx, kctx, ks := wirePage(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(ks.Addr(1).String()), kgo.ClientID("e2e-journey"), kgo.DefaultProduceTopic("orders"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	// stamped at the world's start: its clock begins in 1970
	require.NoError(t, cl.ProduceSync(kctx, &kgo.Record{Value: []byte("on-the-wire"), Partition: 0, Timestamp: time.UnixMilli(1)}).FirstErr())
	waitText(t, ctx, "#wire .wire-rows", "Produce v")
	// closed, then the journey's link opens it again at the entry
	require.NoError(t, chromedp.Do(ctx, clickNow(`#wire summary`),
		chromedp.WaitVisible(`#tracks .rec[data-value="on-the-wire"]`), clickNow(`#tracks .rec[data-value="on-the-wire"]`)))
	waitText(t, ctx, "#journey", "On the wire: Produce corr")
	require.NoError(t, chromedp.Do(ctx, clickNow(`#journey [data-wire-seq]`), chromedp.WaitVisible(`#wire .wire-x.hl`)))
	waitText(t, ctx, "#wire .wire-x.hl", "Produce v")
	waitText(t, ctx, "#wire .wire-x.hl", "e2e-journey → broker")
	screenshot(t, ctx, "journey-wire")
}
