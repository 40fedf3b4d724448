package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/web"
)

// TestAPagePastTheStreamCapSaysSoAndComesBack: with one update stream at
// most, a second tab says why it gets no live updates; once the first tab
// closes, the second gets its stream when it asks again (every
// RetryMs, 10 s) and shows the live cluster.
func TestAPagePastTheStreamCapSaysSoAndComesBack(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	srv := web.NewServer(live, web.NewTerminal(live), os.DirFS("../../notes"))
	srv.Limits.MaxStreams = 1
	hs := httptest.NewServer(srv)
	runCtx, stopRun := context.WithCancel(context.Background())
	go srv.Run(runCtx)
	t.Cleanup(func() {
		stopRun()
		hs.CloseClientConnections()
		hs.Close()
	})

	first, closeFirst := chromedp.NewContext(browser(t))
	defer closeFirst()
	fctx, cancel := context.WithTimeout(first, 60*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(fctx, chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(`.broker[data-broker="1"]`)))

	second := tab(t, hs.URL+"/")
	waitText(t, second, "#stream-note", "too many update streams")
	require.True(t, eval[bool](t, second, `!document.querySelector("#stream-note").hidden`))
	screenshot(t, second, "stream-cap")

	closeFirst()
	_, err = chromedp.Run(second, chromedp.Poll[bool](`document.querySelector("#stream-note").hidden`, chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the second tab never got its stream: %q", text(t, second, "#stream-note"))
	t0 := shownTime(t, second)
	time.Sleep(1500 * time.Millisecond)
	if t1 := shownTime(t, second); t1 <= t0 {
		t.Fatalf("the second tab's clock stays at %d ms after it got its stream", t1)
	}
}
