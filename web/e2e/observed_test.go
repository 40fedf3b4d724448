package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
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
// its Kafka listeners and opens the observed cluster's page: it is the
// shared page (its partition table, brokers' cards, groups, detail and
// terminal), it shows the world's partitions with their leaders and
// epochs, offers no action (no pause, reset, scenario or broker button;
// a button typed by hand is refused), its terminal answers kafka-topics
// --describe and refuses kafka-topics --create (the world gets no topic),
// the groups draw their lag over time (axe-core finds nothing serious),
// and its timeline goes back to an earlier sample.
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
	go live.RunClock(kctx, web.UpdateInterval, nil) // the world's groups form and commit
	hs := httptest.NewServer(observed.NewServer(o))
	t.Cleanup(hs.Close)
	tab, closeTab := chromedp.NewContext(b)
	t.Cleanup(closeTab)
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`#parts tr[data-key="orders-0"]`), chromedp.WaitVisible(`#observed-banner`)))
	var st cluster.State
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { st = w.State(); return nil }))
	for _, p := range st.Partitions {
		if p.Topic == "orders" && p.Partition == 0 {
			waitText(t, ctx, `#parts tr[data-key="orders-0"]`, "orders-0"+itoa(p.Leader)+itoa(p.LeaderEpoch))
		}
	}
	waitText(t, ctx, "#mode", "observing, read-only")
	waitText(t, ctx, "#observed-banner", "nothing on it acts on the cluster")
	waitText(t, ctx, "#detail-meta", "High watermark")
	waitText(t, ctx, "#tracks", "Records not observed")
	waitText(t, ctx, "#brokers", "Page cache")
	waitText(t, ctx, "#brokers .broker", "not observed")
	// the only buttons are the page's own navigation: the partition
	// table's rows, the tabs, the terminal's examples, the timeline's
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("button")].filter((b) => b.offsetParent !== null &&
		!b.closest("#parts, .tabbar, .term-welcome, #timeline, #legend, #parts-pager")).length`))
	require.NoError(t, err)
	require.Zero(t, n, "the observed page offers an action")
	for _, sel := range []string{"#pause", "#reset", "#tabbtn-scen", "#producers"} {
		vis, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(`+strconv.Quote(sel)+`).offsetParent !== null`))
		require.NoError(t, err)
		require.False(t, vis, "%s is shown on the observed page", sel)
	}

	// the terminal: read-only tools, the rest refused
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#term-input`), chromedp.SendKeys(`#term-input`, "kafka-topics --describe --topic orders\n")))
	waitText(t, ctx, "#term-out", "\tTopic: orders\tPartition: 0\tLeader: ")
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(`#term-input`, "kafka-topics --create --topic from-the-page\n")))
	waitText(t, ctx, "#term-out", "would change the cluster")
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(`#term-input`, "kill 1\n")))
	waitText(t, ctx, "#term-out", "kill")
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		for _, tp := range w.Topics() {
			require.NotEqual(t, "from-the-page", tp.Name)
		}
		s, _ := w.BrokerState(1)
		require.Equal(t, cluster.BrokerRunning, s)
		return nil
	}))

	// the groups' lag over time, then the timeline back to an earlier sample
	waitText(t, ctx, "#groups", "lag over time")
	screenshotFull(t, ctx, "observed-page-live")
	if os.Getenv("KAFKALIVE_AXE") != "" { // as TestAccessibility, when axe-core is there
		runAxe(t, ctx, axeScript(t), "observed")
	}
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector("#tl"); s.value = s.min; s.dispatchEvent(new Event("input")); s.dispatchEvent(new Event("change")); return true })()`))
	require.NoError(t, err)
	waitText(t, ctx, "#tl-label", "(past)")
	waitText(t, ctx, "#observed-banner", "(the past)")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#tl-live`)))
	screenshotFull(t, ctx, "observed-page")
	errs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__errs`))
	require.NoError(t, err)
	require.Empty(t, errs, "the page met errors")
}

func itoa(n int32) string { return string(rune('0' + n)) }
