package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestLostWriteShowsOnTheProducer plays "acks=1 loses acked writes" to its
// end: the producer card counts the write lost after its acknowledgement,
// the lost record is drawn where it was as a ghost tile, and its journey
// says it was lost, not committed.
func TestLostWriteShowsOnTheProducer(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1440, 900),
		clickNow(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="acks1-loses-acked-writes"]`),
		clickNow(`[data-scenario="acks1-loses-acked-writes"]`),
		chromedp.WaitVisible(`#scen-play h4`),
	))
	for i := 0; ; i++ {
		require.Less(t, i, 20, "the scenario did not end")
		if eval[bool](t, ctx, `!!document.querySelector("#scen-done")`) {
			break
		}
		step := eval[string](t, ctx, `(document.querySelector("#scen-play h4") || {}).textContent || ""`)
		eval[bool](t, ctx, `(document.querySelector("#scen-play .choice[data-guess='1']:not([disabled])") || document.querySelector("#scen-next")).click() || true`)
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector("#scen-done") || ((document.querySelector("#scen-play h4") || {}).textContent || "") !== `+strconv.Quote(step), chromedp.WithPollingTimeout(10*time.Second)))
		require.NoError(t, err, "step %q did not play", step)
	}
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`(document.querySelector('.producer[data-producer="p"] .counts') || {textContent: ""}).textContent.includes("lost after ack 1")`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("the producer card says %q at the end of acks=1 loses acked writes; want the lost write counted", eval[string](t, ctx, `document.querySelector('.producer[data-producer="p"]').textContent`))
	}
	require.Contains(t, eval[string](t, ctx, `document.querySelector('.producer[data-producer="p"] .counts').textContent`), "acked 3")
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('.lostrow .rec.ghost[data-offset="1"][data-value="b"]')`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("no ghost tile of b: the tracks are\n%s", eval[string](t, ctx, `document.querySelector("#tracks").innerHTML`))
	}
	require.NoError(t, chromedp.Do(ctx, clickNow(`.lostrow .rec.ghost[data-offset="1"]`)))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector("#journey li.lost") && !document.querySelector("#journey").hidden`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("the journey of the lost b shows no loss: %q (hidden %v, errors %v)", eval[string](t, ctx, `document.querySelector("#journey").textContent`),
			eval[bool](t, ctx, `document.querySelector("#journey").hidden`), eval[[]string](t, ctx, `window.__errs`))
	}
	j := eval[string](t, ctx, `document.querySelector("#journey").textContent`)
	for _, want := range []string{"Journey of b at offset 1", "lost after its acknowledgement: broker 2 leads epoch 1 from offset 1 (t=", "holds another record at offset 1 (c)"} {
		if !strings.Contains(j, want) {
			t.Errorf("the journey of the lost b says:\n%s\nwithout %q", j, want)
		}
	}
	if strings.Contains(j, "consumers may read it") {
		t.Errorf("the journey of the lost b says it is committed:\n%s", j)
	}
	if intro := eval[string](t, ctx, `document.querySelector("#intro-text").textContent`); !strings.Contains(intro, "Playing acks=1 loses acked writes on a cluster of its own: 3 brokers, topic clicks") {
		t.Errorf("while the scenario plays the heading says %q", intro)
	}
	screenshot(t, ctx, "lost-write")
}

// TestResetAsksFirst: Reset discards the cluster and its timeline only
// once confirmed; keeping it changes nothing.
func TestResetAsksFirst(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`), chromedp.Sleep(2*time.Second),
		clickNow(`#reset`), chromedp.WaitVisible(`#reset-confirm`)))
	before := shownTime(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond), clickNow(`#reset-no`), chromedp.WaitNotVisible(`#reset-confirm`), chromedp.Sleep(500*time.Millisecond)))
	if after := shownTime(t, ctx); after < before {
		t.Fatalf("Reset without confirming went back from t=%d to t=%d", before, after)
	}
	require.NoError(t, chromedp.Do(ctx, clickNow(`#reset`), chromedp.WaitVisible(`#reset-yes`), clickNow(`#reset-yes`)))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.time) < `+strconv.FormatInt(before, 10), chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "a confirmed Reset did not start a fresh world")
}

// TestReloadMidScenarioShowsTheScenario: a scenario started from a note,
// then the page reloaded: the scenario shows, not the note it came from.
func TestReloadMidScenarioShowsTheScenario(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="notes"]`),
		chromedp.WaitVisible(`#notes-list a`),
		clickNow(`#notes-list a[href="#note/05-leader-epochs"]`),
		chromedp.WaitVisible(`#note [data-scenario-link]`),
		clickNow(`#note [data-scenario-link]`),
		chromedp.WaitVisible(`#scen-play h4`),
		chromedp.Reload(),
		chromedp.WaitVisible(`#scen-play h4`),
		chromedp.Sleep(500*time.Millisecond),
	))
	if tab := eval[string](t, ctx, `document.querySelector(".tabs button.on").dataset.tab`); tab != "scen" {
		t.Fatalf("after a reload mid-scenario the %s tab shows, not the scenario (address %s)", tab, eval[string](t, ctx, `location.href`))
	}
}
