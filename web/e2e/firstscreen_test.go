package e2e

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
)

// onScreen is where the elements a newcomer needs stand on the first
// screen: the first scenario's card, the Terminal tab, a broker, and the
// learner's panel when there is one.
type onScreen struct {
	Scenario, Terminal, Broker, Learner box
	InnerHeight, InnerWidth             float64
}

// box is an element's place in the viewport (Found false: none).
type box struct {
	Found                    bool
	Left, Top, Right, Bottom float64
}

func (b box) onFirstScreen(s onScreen) bool {
	return b.Found && b.Top >= 0 && b.Bottom <= s.InnerHeight && b.Left >= 0 && b.Right <= s.InnerWidth
}

func firstScreen(t *testing.T, ctx context.Context) onScreen {
	t.Helper()
	return eval[onScreen](t, ctx, `(() => {
		const b = (sel) => { const e = document.querySelector(sel); if (!e || !e.getClientRects().length) return {Found: false};
			const r = e.getBoundingClientRect(); return {Found: true, Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; };
		window.scrollTo(0, 0);
		return {Scenario: b("#scen-groups .scen"), Terminal: b('.tabs button[data-tab="term"]'), Broker: b(".broker"), Learner: b("#learner h2"),
			InnerHeight: innerHeight, InnerWidth: innerWidth};
	})()`)
}

// TestFirstScreenShowsAScenario: on a laptop's screen (1440 px) and a
// phone's (390 px) the first screen, before any scroll, shows a guided
// scenario to play and the Terminal one click away; on the laptop the
// cluster is beside them.
func TestFirstScreenShowsAScenario(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#scen-groups .scen`)))
	for _, w := range []struct {
		w, h    int64
		cluster bool
	}{{1440, 900, true}, {390, 844, false}} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h), chromedp.Sleep(400*time.Millisecond)))
		s := firstScreen(t, ctx)
		if !s.Scenario.onFirstScreen(s) || !s.Terminal.onFirstScreen(s) {
			t.Errorf("at %d px the first screen (%v x %v) lacks a scenario to play (%+v) or the Terminal tab (%+v)", w.w, s.InnerWidth, s.InnerHeight, s.Scenario, s.Terminal)
		}
		if w.cluster && (!s.Broker.onFirstScreen(s) || s.Broker.Right > s.Scenario.Left) {
			t.Errorf("at %d px the cluster (%+v) is not beside the scenarios (%+v) on the first screen", w.w, s.Broker, s.Scenario)
		}
		screenshot(t, ctx, "first-screen-"+strconv.FormatInt(w.w, 10))
	}
}

// TestLearnerPageKeepsTheTerminalBeside: on the page of go run
// ./exercises/live, the panel of the learner's code sits beside the
// scenarios and the terminal at 1280 to 1920 px: all three on the first
// screen.
func TestLearnerPageKeepsTheTerminalBeside(t *testing.T) {
	ctx := learnerPage(t, kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch}}, nil)
	for _, w := range []struct{ w, h int64 }{{1280, 800}, {1440, 900}, {1920, 1080}} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h), chromedp.Sleep(400*time.Millisecond)))
		s := firstScreen(t, ctx)
		if !s.Learner.onFirstScreen(s) || !s.Scenario.onFirstScreen(s) || !s.Terminal.onFirstScreen(s) || s.Learner.Right > s.Terminal.Left {
			t.Errorf("at %d px the learner's panel (%+v), the scenarios (%+v) and the Terminal tab (%+v) are not side by side on the first screen (%v x %v)",
				w.w, s.Learner, s.Scenario, s.Terminal, s.InnerWidth, s.InnerHeight)
		}
		screenshot(t, ctx, "learner-first-screen-"+strconv.FormatInt(w.w, 10))
	}
}
