package e2e

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
	"github.com/kafkalive/kafkalive/web/observed"
)

// TestObservedPageShowsTheClusterReadOnly observes the default world over
// its Kafka listeners and opens the observed cluster's page: it shows the
// world's partitions with their leaders, offers no action, its terminal
// answers kafka-topics --describe and refuses kafka-topics --create (the
// world gets no topic), and its timeline goes back to an earlier sample.
func TestObservedPageShowsTheClusterReadOnly(t *testing.T) {
	b := browser(t)
	live, err := web.NewLive()
	require.NoError(t, err)
	kctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	ks, err := web.StartKafka(kctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	o, err := observe.New(observe.Config{Bootstrap: []string{ks.Addr(1).String()}, Interval: 200 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(o.Close)
	go o.Run(kctx)
	hs := httptest.NewServer(observed.NewServer(o))
	t.Cleanup(hs.Close)
	tab, closeTab := chromedp.NewContext(b)
	t.Cleanup(closeTab)
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`#obs-parts tr[data-key="p-orders-0"]`)))
	var st cluster.State
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { st = w.State(); return nil }))
	for _, p := range st.Partitions {
		if p.Topic == "orders" && p.Partition == 0 {
			waitText(t, ctx, `#obs-parts tr[data-key="p-orders-0"]`, "orders0"+itoa(p.Leader)+itoa(p.LeaderEpoch))
		}
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("main button").length`))
	require.NoError(t, err)
	require.Zero(t, n, "the observed page offers an action")

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#obs-term-input`), chromedp.SendKeys(`#obs-term-input`, "kafka-topics --describe --topic orders\n")))
	waitText(t, ctx, "#obs-term-out", "\tTopic: orders\tPartition: 0\tLeader: ")
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(`#obs-term-input`, "kafka-topics --create --topic from-the-page\n")))
	waitText(t, ctx, "#obs-term-out", "would change the cluster")
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		for _, tp := range w.Topics() {
			require.NotEqual(t, "from-the-page", tp.Name)
		}
		return nil
	}))

	time.Sleep(time.Second) // a few samples
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("#obs-tl"); s.value = s.min; s.dispatchEvent(new Event("input")); return true })()`))
	require.NoError(t, err)
	waitText(t, ctx, "#obs-tl-label", "sample ")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#obs-live`)))
	screenshot(t, ctx, "observed-page")
}

func itoa(n int32) string { return string(rune('0' + n)) }
