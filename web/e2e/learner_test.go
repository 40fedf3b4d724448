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

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
	"github.com/kafkalive/kafkalive/web"
)

// learnerPage serves the default world on code (go run ./exercises/live)
// and opens it in a new tab; changed, when not nil, says which parts'
// files changed since the page started.
func learnerPage(t *testing.T, code kitlive.Code, changed func() []string) context.Context {
	t.Helper()
	b := browser(t)
	live, err := web.NewLearnerLive(code)
	require.NoError(t, err)
	if changed != nil {
		live.WatchLearnerCode(changed)
	}
	srv := web.NewServer(live, web.NewTerminal(live), os.DirFS("../../notes"))
	hs := httptest.NewServer(srv)
	runCtx, stopRun := context.WithCancel(context.Background())
	go srv.Run(runCtx)
	tab, closeTab := chromedp.NewContext(b)
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(func() {
		cancel()
		closeTab()
		stopRun()
		hs.CloseClientConnections()
		hs.Close()
	})
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`#learner`),
	))
	return ctx
}

// The page marks each part "your code" or "reference" and names the guided
// scenarios that play it, each scenario's card names its part, the panel
// says that a fix needs a restart, and a guided scenario on the learner's
// code, opened from its part, ends with its verdict against the reference.
func TestLearnerPartsAndScenarioVerdict(t *testing.T) {
	ctx := learnerPage(t, kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch}}, nil)
	runs, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll("#learner .learner-parts li")].map(li => [li.dataset.part, li.dataset.runs]))`))
	require.NoError(t, err)
	if runs["ch02/index"] != "your code" || runs["ch04/recovery"] != "reference" || len(runs) != len(kitlive.Parts) {
		t.Fatalf("the page marks the parts %v, want ch02/index your code and the others reference", runs)
	}
	all, err := kitlive.Scenarios()
	require.NoError(t, err)
	want := map[string][]string{}
	for _, g := range all {
		want[g.Part] = append(want[g.Part], g.Name)
	}
	played, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](`Object.fromEntries([...document.querySelectorAll("#learner .learner-parts li")].map(li => [li.dataset.part, [...li.querySelectorAll("[data-scenario-link]")].map(b => b.dataset.scenarioLink)]))`))
	require.NoError(t, err)
	require.Equal(t, want, played, "each part names the scenarios that play it")
	restart, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#learner .learner-restart") || {}).textContent || ""`))
	require.NoError(t, err)
	require.Contains(t, restart, "run go run ./exercises/live again", "the panel says that a fix needs a restart")
	// the part's link opens the scenario in the scenarios' tab
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#learner li[data-part="ch02/index"] [data-scenario-link="your-lookup"]').click() || true`))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#scen-play .play`)))
	plays, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#scen-play .play").textContent`))
	require.NoError(t, err)
	require.Contains(t, plays, "Plays your ch02/index", "the scenario names the part it plays")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#scen-play .play`)))
	for i := 0; ; i++ {
		if i == 20 {
			t.Fatal("the scenario your-lookup did not end within 20 steps")
		}
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector("#scen-done")`))
		require.NoError(t, err)
		if done {
			break
		}
		step, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#scen-play h4") || {}).textContent || ""`))
		require.NoError(t, err)
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("#scen-play .choice[data-guess='2']:not([disabled])") || document.querySelector("#scen-next")).click() || true`))
		require.NoError(t, err)
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector("#scen-done") || ((document.querySelector("#scen-play h4") || {}).textContent || "") !== `+strconv.Quote(step), chromedp.WithPollingTimeout(20*time.Second)))
		require.NoError(t, err, "step %q did not play", step)
	}
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('#learner .learner-verdict[data-matches="true"]')`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		txt, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#learner").textContent`))
		t.Fatalf("no verdict that matches the reference: %v; the panel says:\n%s", err, txt)
	}
	screenshot(t, ctx, "learner-verdict")
}

// A scenario's card names the part it plays, and a part whose files
// changed since the page started says to restart it.
func TestLearnerCardsNameTheirPartsAndAChangeSaysRestart(t *testing.T) {
	ctx := learnerPage(t, kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch}},
		func() []string { return []string{kitlive.PartIndex} })
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`.tabs button[data-tab="scen"]`)))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`[data-scenario="your-retention"]`)))
	card, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-scenario="your-retention"]').textContent`))
	require.NoError(t, err)
	require.Contains(t, card, "plays your ch03/retention")
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`/run go run \.\/exercises\/live again to run the new code/.test((document.querySelector('#learner li[data-part="ch02/index"]') || {}).textContent || "")`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		txt, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#learner").textContent`))
		t.Fatalf("the changed part does not say to restart: %v; the panel says:\n%s", err, txt)
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#learner .learner-parts li > *")].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)`))
	require.NoError(t, err)
	require.Empty(t, wide, "lines of the panel wider than the panel: they wrap, nothing is cut off")
	other, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#learner li[data-part="ch04/recovery"]').textContent`))
	require.NoError(t, err)
	require.NotContains(t, other, "to run the new code", "a part whose files did not change")
	screenshot(t, ctx, "learner-changed")
}
