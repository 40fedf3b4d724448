package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/web"
)

// serve serves a fresh default world (its clock running) and returns its
// address.
func serve(t *testing.T) string {
	t.Helper()
	live, err := web.NewLive()
	require.NoError(t, err)
	srv := web.NewServer(live, web.NewTerminal(live), os.DirFS("../../notes"))
	hs := httptest.NewServer(srv)
	ctx, stop := context.WithCancel(context.Background())
	go srv.Run(ctx)
	t.Cleanup(func() {
		stop()
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs.URL
}

// tab opens url in a new tab of the shared browser.
func tab(t *testing.T, url string) context.Context {
	t.Helper()
	tb, closeTab := chromedp.NewContext(browser(t))
	ctx, cancel := context.WithTimeout(tb, 60*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			shot, stop := context.WithTimeout(tb, 10*time.Second)
			path, err := saveScreenshot(shot, "failed-"+t.Name()+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
			stop()
			t.Logf("screenshot of the failure: %s (%v)", path, err)
		}
		cancel()
		closeTab()
	})
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(url), chromedp.WaitVisible(`.broker[data-broker="1"]`)))
	return ctx
}

// text is the text of the element sel names ("" if none).
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ""`))
	require.NoError(t, err)
	return s
}

// waitText waits until the element sel names holds want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`((document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || "").includes(`+strconv.Quote(want)+`)`, chromedp.WithPollingTimeout(15*time.Second)))
	require.NoError(t, err, "waiting for %s to say %q; it says %q", sel, want, text(t, ctx, sel))
}

func location(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`))
	require.NoError(t, err)
	return s
}

// TestEveryTabFollowsTheSession plays a scenario in one tab: a second tab
// shows the same step, a reload keeps it, Reset in the second tab takes
// the first back to the live cluster with a message, and the URL the
// first tab had starts the scenario again at its step on a new server.
func TestEveryTabFollowsTheSession(t *testing.T) {
	url := serve(t)
	a := tab(t, url+"/")
	require.NoError(t, chromedp.Do(a,
		clickNow(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="kip101-part3"]`),
		clickNow(`[data-scenario="kip101-part3"]`),
		chromedp.WaitVisible(`#scen-play h4`),
	))
	waitText(t, a, "#scen-play h4", "Step 0")
	require.NoError(t, chromedp.Do(a, clickNow(`#scen-next`)))
	waitText(t, a, "#scen-play h4", "Step 1")
	// step 1 asks: answer it with the right choice (2)
	require.NoError(t, chromedp.Do(a, clickNow(`#scen-play .choice[data-guess="2"]`)))
	waitText(t, a, "#scen-play h4", "Step 2")
	if got := location(t, a); got != "?scenario=kip101-part3&step=2&answers=0%2C2" {
		t.Errorf("after two steps the URL's query is %q", got)
	}
	if got := text(t, a, "#scen-outcome"); !strings.HasPrefix(got, "Right.") {
		t.Errorf("after the right choice the page says %q", got)
	}

	b := tab(t, url+"/")
	waitText(t, b, "#scen-play h4", "Step 2")
	waitText(t, b, "#mode", "playing a guided scenario")
	if got := text(t, b, "#scen-outcome"); !strings.HasPrefix(got, "Right.") {
		t.Errorf("a second tab does not show the answer chosen in the first: %q", got)
	}
	if got := location(t, b); !strings.Contains(got, "scenario=kip101-part3&step=2") {
		t.Errorf("a second tab's URL query is %q", got)
	}

	require.NoError(t, chromedp.Do(a, chromedp.Reload(), chromedp.WaitVisible(`.broker[data-broker="2"]`)))
	waitText(t, a, "#scen-play h4", "Step 2")

	// the second tab plays a step: the first follows
	require.NoError(t, chromedp.Do(b, clickNow(`#scen-next`)))
	waitText(t, a, "#scen-play h4", "Step 3")

	require.NoError(t, chromedp.Do(b, clickNow(`#reset`), chromedp.WaitVisible(`#reset-yes`), clickNow(`#reset-yes`)))
	waitText(t, a, "#scen-note-live", "ended in another tab")
	waitText(t, a, "#mode", "rules")
	if got := location(t, a); got != "" {
		t.Errorf("after a reset in another tab the first tab's URL query is %q", got)
	}
	if got := text(t, b, "#scen-note-live"); got != "" {
		t.Errorf("the tab that reset says %q", got)
	}

	// a new server (the old one restarted): the URL plays the scenario
	// again to its step, with the answers
	c := tab(t, serve(t)+"/?scenario=kip101-part3&step=2&answers=0,2")
	waitText(t, c, "#scen-play h4", "Step 2")
	if got := text(t, c, "#scen-play .q.answered .choice.right"); got == "" {
		t.Errorf("the step answered before the restart shows no right choice")
	}
	if got := text(t, c, "#scen-outcome"); !strings.HasPrefix(got, "Right.") {
		t.Errorf("after the restart the answer chosen is lost: %q", got)
	}
}
