package e2e

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// axeScript returns axe-core's axe.min.js from the file $KAFKALIVE_AXE
// names (.ci/run installs it with npm), or skips the test without it (a
// failure under KAFKALIVE_REQUIRE_BROWSER, as in CI).
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("KAFKALIVE_AXE")
	if path == "" {
		msg := "set KAFKALIVE_AXE to axe-core's axe.min.js (npm install --prefix DIR axe-core; DIR/node_modules/axe-core/axe.min.js) to run the accessibility checks"
		if os.Getenv("KAFKALIVE_REQUIRE_BROWSER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err, "KAFKALIVE_AXE")
	return string(b)
}

// axeResult is what the test reads of axe.run's answer.
type axeResult struct {
	Violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any  `json:"target"`
			HTML   string `json:"html"`
		} `json:"nodes"`
	} `json:"violations"`
}

// runAxe checks the page as it is now with axe-core's rules and fails on
// any serious or critical violation; it logs the count of each impact.
func runAxe(t *testing.T, ctx context.Context, script, state string) {
	t.Helper()
	loaded := eval[bool](t, ctx, `typeof window.axe === "object"`)
	if !loaded {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](script+"\n;true"))
		require.NoError(t, err, "injecting axe-core")
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[axeResult](`axe.run(document, {resultTypes: ["violations"]})`, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "axe.run")
	counts := map[string]int{}
	for _, v := range res.Violations {
		counts[v.Impact] += len(v.Nodes)
		if v.Impact != "serious" && v.Impact != "critical" {
			continue
		}
		var where []string
		for i, n := range v.Nodes {
			if i == 3 {
				where = append(where, fmt.Sprintf("and %d more", len(v.Nodes)-3))
				break
			}
			where = append(where, fmt.Sprintf("%v %.120s", n.Target, n.HTML))
		}
		t.Errorf("%s: axe-core %s (%s): %s\n  %s", state, v.ID, v.Impact, v.Help, strings.Join(where, "\n  "))
	}
	for _, v := range res.Violations {
		if v.Impact == "moderate" || v.Impact == "minor" {
			t.Logf("%s: axe-core %s (%s, %d elements): %s", state, v.ID, v.Impact, len(v.Nodes), v.Help)
		}
	}
	t.Logf("%s: axe-core violations by impact (elements): critical %d, serious %d, moderate %d, minor %d",
		state, counts["critical"], counts["serious"], counts["moderate"], counts["minor"])
}

// TestAccessibility runs axe-core on the page's main states: the live
// cluster, then with its clock paused a record's journey, the scenario list and a scenario played
// with its commands shown, a note in the reading mode, the past, the
// events, and the phone's layout.
func TestAccessibility(t *testing.T) {
	script := axeScript(t)
	ctx, _ := page(t, 2)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.WaitVisible(`.rec`), chromedp.Sleep(500*time.Millisecond)))
	runAxe(t, ctx, script, "live")
	// the clock paused from here: axe-core reads a page that stands still
	require.NoError(t, chromedp.Do(ctx, clickNow(`#pause`)))

	require.NoError(t, chromedp.Do(ctx, clickNow(`.logrow[data-role="leader"] .rec`), chromedp.WaitVisible(`#journey`)))
	runAxe(t, ctx, script, "journey")

	require.NoError(t, chromedp.Do(ctx, clickNow(`.tabs button[data-tab="events"]`), chromedp.WaitVisible(`#events li`)))
	runAxe(t, ctx, script, "events")

	// the past: the timeline dragged back (the page shows a moment and says so)
	eval[bool](t, ctx, `(() => { const tl = document.querySelector("#tl"); tl.value = Number(tl.min) + 500; tl.dispatchEvent(new Event("input")); return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#past-banner`), chromedp.Sleep(500*time.Millisecond)))
	runAxe(t, ctx, script, "past")
	require.NoError(t, chromedp.Do(ctx, clickNow(`#tl-live`), chromedp.WaitNotVisible(`#past-banner`)))

	require.NoError(t, chromedp.Do(ctx, clickNow(`.tabs button[data-tab="scen"]`), chromedp.WaitVisible(`[data-scenario="life-of-a-record"]`)))
	runAxe(t, ctx, script, "scenario list")
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`[data-scenario="life-of-a-record"]`),
		chromedp.WaitVisible(`#scen-play h4`),
		clickNow(`#scen-next`),
		chromedp.Sleep(500*time.Millisecond),
		clickNow(`#scen-play details.cmds summary`),
	))
	runAxe(t, ctx, script, "scenario played")
	require.NoError(t, chromedp.Do(ctx, clickNow(`#reset`), chromedp.WaitVisible(`#reset-yes`), clickNow(`#reset-yes`), chromedp.Sleep(500*time.Millisecond)))

	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="notes"]`),
		chromedp.WaitVisible(`#notes-list a`),
	))
	runAxe(t, ctx, script, "notes list")
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`#notes-list a[href="#note/05-leader-epochs"]`),
		chromedp.WaitVisible(`#note h1`),
		clickNow(`#wide`),
	))
	runAxe(t, ctx, script, "a note, reading mode")
	require.NoError(t, chromedp.Do(ctx, clickNow(`#wide`)))

	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Sleep(500*time.Millisecond)))
	runAxe(t, ctx, script, "phone")
}

// TestKeyboardReachesEveryControl tabs through the page (the clock paused,
// so that nothing appears or goes meanwhile): every visible control is
// reached, and each shows a focus ring when it is.
func TestKeyboardReachesEveryControl(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1440, 900),
		chromedp.WaitVisible(`.rec`),
		clickNow(`#pause`),
		chromedp.WaitVisible(`#pause`),
	))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#mode").textContent === "paused"`, chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err)
	time.Sleep(300 * time.Millisecond)
	// number the visible controls
	controls := eval[[]string](t, ctx, `(() => {
		const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
			.filter(e => !e.disabled && e.getAttribute("tabindex") !== "-1" && e.checkVisibility({visibilityProperty: true}) && e.getClientRects().length);
		return all.map((e, i) => { e.dataset.kid = i; return i + " " + e.tagName.toLowerCase() + " " + (e.id || e.dataset.cmd || e.dataset.tab || e.getAttribute("aria-label") || e.textContent.trim().slice(0, 40)); });
	})()`)
	require.NotEmpty(t, controls)
	eval[bool](t, ctx, `(document.activeElement.blur(), window.focus(), true)`)
	type focus struct {
		Kid  string
		Ring bool
		What string
	}
	reached := map[string]bool{}
	var noRing []string
	for i := 0; i < len(controls)+20; i++ {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)))
		f := eval[focus](t, ctx, `(() => { const e = document.activeElement; const s = getComputedStyle(e);
			const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || (s.boxShadow && s.boxShadow !== "none");
			return {Kid: e.dataset ? (e.dataset.kid || "") : "", Ring: ring, What: e.tagName.toLowerCase() + "#" + e.id + "." + e.className}; })()`)
		if f.Kid == "" {
			continue
		}
		if !f.Ring {
			noRing = append(noRing, f.What)
		}
		reached[f.Kid] = true
	}
	var missed []string
	for _, c := range controls {
		kid, _, _ := strings.Cut(c, " ")
		if !reached[kid] {
			missed = append(missed, c)
		}
	}
	sort.Strings(noRing)
	if len(missed) > 0 {
		t.Errorf("Tab reached %d of %d controls; never reached:\n%s", len(reached), len(controls), strings.Join(missed, "\n"))
	}
	if len(noRing) > 0 {
		t.Errorf("these controls show no focus ring when focused: %v", noRing)
	}
	t.Logf("Tab reached %d of %d visible controls", len(reached), len(controls))
}
