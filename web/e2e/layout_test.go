package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// eval runs expr in the page and decodes its value.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, "evaluating %s", expr)
	return v
}

// realClick presses the left button on the middle of the element sel
// names, holds it 120 ms (the page redraws in between, as under a real
// hand) and releases it: the press and the release must land on the same
// element for the browser to make a click of them.
func realClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	box := eval[[]float64](t, ctx, `(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); if (!e) return [];
		e.scrollIntoView({block: "center", inline: "nearest"}); const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	require.Len(t, box, 2, "no element %s to click", sel)
	x, y := box[0], box[1]
	require.NoError(t, chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)),
		chromedp.Sleep(120*time.Millisecond),
		chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)),
	))
}

// TestRealClicksLandWhileThePageUpdates clicks the brokers' stop, start and
// kill buttons twenty times with real mouse presses while the page takes
// its ten updates a second: every click must reach the cluster (the
// terminal echoes each command sent).
func TestRealClicksLandWhileThePageUpdates(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`)))
	var want []string
	verbs := []string{"stop", "start", "kill", "start"}
	for i := 0; i < 20; i++ {
		cmd := fmt.Sprintf("%s %d", verbs[i%len(verbs)], 1+(i/len(verbs))%3)
		before := eval[int](t, ctx, `document.querySelectorAll("#term-out .cmd").length`)
		// a button is enabled when the broker's state allows it (start a
		// stopped broker): wait for the page to show the new state
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector('button[data-cmd="`+cmd+`"]').disabled`, chromedp.WithPollingTimeout(3*time.Second)))
		require.NoError(t, err, "%s stays disabled", cmd)
		realClick(t, ctx, `button[data-cmd="`+cmd+`"]`)
		want = append(want, "$ "+cmd)
		// the command's echo arrives with its answer
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#term-out .cmd").length > `+strconv.Itoa(before), chromedp.WithPollingTimeout(3*time.Second)))
		if err != nil {
			got := eval[[]string](t, ctx, `[...document.querySelectorAll("#term-out .cmd")].map(e => e.textContent)`)
			t.Fatalf("click %d of 20 (%s) was lost: the terminal echoed only\n%s", i+1, cmd, strings.Join(got, "\n"))
		}
	}
	got := eval[[]string](t, ctx, `[...document.querySelectorAll("#term-out .cmd")].map(e => e.textContent)`)
	require.Equal(t, want, got, "the commands the clicks sent")
}

// widths are the screens the page is laid out for.
var widths = []struct {
	name string
	w, h int64
}{{"desktop", 1440, 900}, {"laptop", 1024, 768}, {"tablet", 768, 1024}, {"phone", 390, 844}}

// TestLayoutFitsEveryWidth lays the page out at 1440, 1024, 768 and 390
// px: nothing is wider than the viewport (Kafka's wide tables and a
// 20,000-character line scroll or wrap inside the terminal), the partition
// detail shows several records side by side, and the reading mode gives
// the notes the whole width. It keeps full-page screenshots.
func TestLayoutFitsEveryWidth(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`.rec`),
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-topics --describe\n"),
	))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#term-out").textContent.includes("Topic: profiles")`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(`#term-input`, "kafka-consumer-groups --describe --group billing\n")))
	// a 20,000-character line, typed at once (key by key would take minutes)
	eval[bool](t, ctx, `(() => { const i = document.querySelector("#term-input"); i.value = "produce checkout " + "x".repeat(20000);
		document.querySelector("#term-form").requestSubmit(); return true; })()`)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#term-out .cmd").length >= 3`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err)
	for _, w := range widths {
		t.Run(w.name, func(t *testing.T) {
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h), chromedp.Sleep(400*time.Millisecond)))
			type fit struct {
				ScrollWidth, InnerWidth    int
				TermWidth, TermColumn      int
				TermScrolls                bool
				Cells, DetailWidth         int
				Overflowing                []string
				ClippedPre, WidestTermLine int
			}
			f := eval[fit](t, ctx, `(() => {
				const de = document.documentElement, term = document.querySelector("#term-out");
				const over = [...document.querySelectorAll("body *")].filter(e => {
					const r = e.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1 && !e.closest(".term-out, .tracks, .scroll-x, .tl-marks, pre, table");
				}).slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + "." + e.className);
				const ox = getComputedStyle(term).overflowX;
				// a pre of Kafka's output wider than the terminal must be wrapped or reachable by scrolling
				let clipped = 0, widest = 0;
				for (const p of term.querySelectorAll("pre")) {
					widest = Math.max(widest, p.scrollWidth);
					const wraps = getComputedStyle(p).whiteSpace.startsWith("pre-wrap");
					if (!wraps && p.scrollWidth > term.clientWidth && !(ox === "auto" || ox === "scroll") ) clipped++;
					if (!wraps && p.scrollWidth > p.clientWidth + 1) clipped++; // the pre itself cuts its text
				}
				const leader = document.querySelector('.logrow[data-role="leader"]');
				return {ScrollWidth: de.scrollWidth, InnerWidth: innerWidth,
					TermWidth: term.getBoundingClientRect().width, TermColumn: document.querySelector(".col.right").getBoundingClientRect().width,
					TermScrolls: ox === "auto" || ox === "scroll",
					// the record cells the leader's track has room for, on screen
					Cells: leader ? Math.floor(Math.min(leader.querySelector(".track").getBoundingClientRect().right, innerWidth) - leader.querySelector(".track").getBoundingClientRect().left) / parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cell")) | 0 : 0,
					DetailWidth: document.querySelector("#detail").getBoundingClientRect().width,
					Overflowing: over, ClippedPre: clipped, WidestTermLine: widest};
			})()`)
			screenshotFull(t, ctx, "layout-"+w.name)
			if f.ScrollWidth > f.InnerWidth {
				t.Errorf("at %d px the page is %d px wide; these stick out: %v", w.w, f.ScrollWidth, f.Overflowing)
			}
			if f.TermWidth > f.TermColumn+1 {
				t.Errorf("at %d px the terminal is %d px wide in a column of %d", w.w, f.TermWidth, f.TermColumn)
			}
			if !f.TermScrolls || f.ClippedPre > 0 {
				t.Errorf("at %d px the terminal clips Kafka's output (scrolls sideways: %v, clipped blocks: %d, widest %d px in %d)", w.w, f.TermScrolls, f.ClippedPre, f.WidestTermLine, f.TermWidth)
			}
			if tl := eval[float64](t, ctx, `document.querySelector("#tl").getBoundingClientRect().width`); tl < 0.5*float64(f.InnerWidth) {
				t.Errorf("at %d px the timeline's slider is %.0f px wide: too short to drag", w.w, tl)
			}
			if f.Cells < 4 {
				t.Errorf("at %d px the partition detail (%d px wide) has room for %d of the leader's records side by side, want at least 4", w.w, f.DetailWidth, f.Cells)
			}
		})
	}
	// the reading mode: the notes take the whole width
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768),
		clickNow(`.tabs button[data-tab="notes"]`),
		chromedp.WaitVisible(`#notes-list a`),
		clickNow(`#notes-list a[href="#note/replication-isr-high-watermark"]`),
		chromedp.WaitVisible(`#note h1`),
		clickNow(`#wide`),
		chromedp.Sleep(200*time.Millisecond),
	))
	wide := eval[[]float64](t, ctx, `[document.querySelector(".col.right").getBoundingClientRect().width, innerWidth, document.documentElement.scrollWidth]`)
	if wide[0] < 0.95*wide[1] || wide[2] > wide[1] {
		t.Errorf("in the reading mode the notes' column is %v px wide in a %v px window (page %v px)", wide[0], wide[1], wide[2])
	}
	screenshotFull(t, ctx, "reading-mode")
}

// TestTerminalHistory walks the lines typed with the arrow keys: up goes
// back, down comes forward and gives back the line being written.
func TestTerminalHistory(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-topics --list\n"),
		chromedp.SendKeys(`#term-input`, "kafka-consumer-groups --list\n"),
		chromedp.SendKeys(`#term-input`, "kafka-top"),
	))
	value := func() string { return eval[string](t, ctx, `document.querySelector("#term-input").value`) }
	for _, step := range []struct{ key, want string }{
		{kb.ArrowUp, "kafka-consumer-groups --list"},
		{kb.ArrowUp, "kafka-topics --list"},
		{kb.ArrowUp, "kafka-topics --list"},
		{kb.ArrowDown, "kafka-consumer-groups --list"},
		{kb.ArrowDown, "kafka-top"},
	} {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(step.key)))
		if got := value(); got != step.want {
			t.Fatalf("after %q the terminal's input holds %q, want %q", step.key, got, step.want)
		}
	}
}

// TestStepCommandsAreBehindAToggle: a scenario's list says what each story
// is about in the page's words (no internal references), and a step's
// commands show only when asked for.
func TestStepCommandsAreBehindAToggle(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="kip101-part1"]`),
	))
	list := eval[string](t, ctx, `document.querySelector("#scen-list").textContent`)
	for _, bad := range []string{".md", "create-topic", "assignment="} {
		if strings.Contains(list, bad) {
			t.Errorf("the scenario list shows %q:\n%s", bad, list)
		}
	}
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`[data-scenario="kip101-part1"]`),
		chromedp.WaitVisible(`#scen-play h4`),
	))
	shown := eval[bool](t, ctx, `(() => { const a = document.querySelector("#scen-play .actions"); return !!a && a.checkVisibility(); })()`)
	if shown {
		t.Fatal("the step's commands show before the toggle is opened")
	}
	require.NoError(t, chromedp.Do(ctx, clickNow(`#scen-play details.cmds summary`), chromedp.WaitVisible(`#scen-play .actions`)))
	cmds := eval[string](t, ctx, `document.querySelector("#scen-play .actions").textContent`)
	if !strings.Contains(cmds, "create-topic") {
		t.Fatalf("the opened toggle shows %q, not the step's commands", cmds)
	}
}

// screenshotFull keeps a picture of the whole page, beyond the viewport.
func screenshotFull(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	dir := screenshotDir(t)
	path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// screenshotDir is where saveScreenshot keeps its pictures:
// $KAFKALIVE_SCREENSHOTS, or kafkalive-e2e in the system's temporary
// directory.
func screenshotDir(t *testing.T) string {
	d := os.Getenv("KAFKALIVE_SCREENSHOTS")
	if d == "" {
		d = filepath.Join(os.TempDir(), "kafkalive-e2e")
	}
	require.NoError(t, os.MkdirAll(d, 0o755))
	return d
}

// TestChosenRecordStaysInView chooses a record and lets the cluster write
// more than a window of records after it: the record stays drawn and
// chosen, and its journey open.
func TestChosenRecordStaysInView(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.WaitVisible(`.logrow[data-role="leader"] .rec`)))
	offset := eval[string](t, ctx, `(() => { const r = document.querySelector('.logrow[data-role="leader"] .rec'); r.click(); return r.dataset.offset; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#journey`)))
	room := eval[int](t, ctx, `Math.floor(document.querySelector('.logrow[data-role="leader"] .track').getBoundingClientRect().width / parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cell")))`)
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`(document.querySelector("#detail-meta").textContent.match(/Log end offset(\d+)/) || [0, 0])[1] > `+offset+` + `+strconv.Itoa(room+2), chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the partition did not grow past a window of records after offset %s", offset)
	type seen struct {
		Drawn, Chosen, Journey bool
	}
	s := eval[seen](t, ctx, `(() => { const r = document.querySelector('.logrow[data-role="leader"] .rec[data-offset="`+offset+`"]');
		const tr = r && r.closest(".track").getBoundingClientRect(), b = r && r.getBoundingClientRect();
		return {Drawn: !!r && b.left >= tr.left && b.right <= tr.right + 1, Chosen: !!r && r.classList.contains("sel"), Journey: !document.querySelector("#journey").hidden}; })()`)
	if !s.Drawn || !s.Chosen || !s.Journey {
		t.Fatalf("after more than %d records, the chosen record at offset %s is drawn in its track: %v, marked chosen: %v, its journey open: %v", room, offset, s.Drawn, s.Chosen, s.Journey)
	}
}

// TestBrokerCardsDoNotOverlap lays the page out at 1000 to 1199 px, where
// the brokers' column is narrowest, with brokers in every state (a
// controller, crashed and fenced, powered off): no two pieces of a
// broker's card overlap and none is cut.
func TestBrokerCardsDoNotOverlap(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`),
		clickNow(`button[data-cmd="kill 2"]`), clickNow(`button[data-cmd="power-cut 3"]`), chromedp.Sleep(3*time.Second)))
	for _, w := range []int64{1000, 1100, 1199} {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(w, 800), chromedp.Sleep(400*time.Millisecond)))
		bad := eval[[]string](t, ctx, `(() => { const out = [];
			for (const b of document.querySelectorAll(".broker")) {
				const els = [...b.querySelectorAll(".figs > div, .top > *, .acts button")];
				for (let i = 0; i < els.length; i++) {
					const a = els[i].getBoundingClientRect(), card = b.getBoundingClientRect();
					if (a.right > card.right + 1 || els[i].scrollWidth > els[i].clientWidth + 1) out.push("cut: " + els[i].textContent.trim());
					for (let j = i + 1; j < els.length; j++) {
						const c = els[j].getBoundingClientRect();
						if (a.left < c.right - 1 && c.left < a.right - 1 && a.top < c.bottom - 1 && c.top < a.bottom - 1) out.push(els[i].textContent.trim() + " over " + els[j].textContent.trim());
					}
				}
			}
			return out; })()`)
		if len(bad) > 0 {
			screenshot(t, ctx, "broker-cards-"+strconv.FormatInt(w, 10))
			t.Errorf("at %d px the brokers' cards overlap or cut: %v", w, bad)
		}
	}
}
