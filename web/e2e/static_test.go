package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/web"
)

// The static site (kafkalive static): built as a user builds it, served by
// a plain static file server with no kafkalive process behind it, and
// driven in the browser as a user drives it. The world runs in the page's
// Web Worker.

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error
)

// TestMain removes the static site built for the tests, if one was, and
// the browser's profile.
func TestMain(m *testing.M) {
	code := m.Run()
	closeBrowser()
	if siteDir != "" {
		os.RemoveAll(siteDir)
	}
	os.Exit(code)
}

// staticSite builds the static site once per test run, with the command
// a user types (go run ./cmd/kafkalive static --out DIR), and returns its
// directory.
func staticSite(t *testing.T) string {
	t.Helper()
	browser(t) // skip before building when there is no browser
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kafkalive-site-")
		if err != nil {
			siteErr = err
			return
		}
		cmd := exec.Command("go", "run", "./cmd/kafkalive", "static", "--out", dir)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			os.RemoveAll(dir)
			siteErr = fmt.Errorf("go run ./cmd/kafkalive static --out %s: %v\n%s", dir, err, out)
			return
		}
		siteDir = dir
	})
	require.NoError(t, siteErr)
	return siteDir
}

// serveStatic serves dir with a plain static file server: Python's
// http.server, as the README says, or Go's file server where there is no
// python3. It returns the site's address and a function that stops the
// server (the test's end stops it too).
func serveStatic(t *testing.T, dir string) (string, func()) {
	t.Helper()
	if py, err := exec.LookPath("python3"); err == nil {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		cmd := exec.Command(py, "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, strconv.Itoa(port))
		require.NoError(t, cmd.Start())
		var once sync.Once
		stop := func() {
			once.Do(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
		}
		t.Cleanup(stop)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		for i := 0; ; i++ {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
				break
			}
			if i == 100 {
				t.Fatalf("python3 -m http.server on %s did not start: %v", addr, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("the static site is served by python3 -m http.server at http://%s/", addr)
		return "http://" + addr + "/", stop
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir))}
	go srv.Serve(ln)
	var once sync.Once
	stop := func() { once.Do(func() { srv.Close() }) }
	t.Cleanup(stop)
	t.Logf("the static site is served by Go's http.FileServer at http://%s/ (no python3)", ln.Addr())
	return "http://" + ln.Addr().String() + "/", stop
}

// staticTab opens url (the static site, or a page of it) in a new tab in
// front, and waits for the world's brokers.
func staticTab(t *testing.T, url string) context.Context {
	t.Helper()
	ctx := openTab(t, url, 3*time.Minute)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.broker[data-broker="3"]`)))
	return ctx
}

// openTab opens url in a new tab in front, for at most d.
func openTab(t *testing.T, url string, d time.Duration) context.Context {
	t.Helper()
	tb, closeTab := chromedp.NewContext(browser(t))
	ctx, cancel := context.WithTimeout(tb, d)
	t.Cleanup(func() {
		if t.Failed() {
			shot, stop := context.WithTimeout(tb, 10*time.Second)
			path, err := saveScreenshot(shot, "failed-"+t.Name())
			stop()
			errs, _ := chromedp.Run(shot, chromedp.Evaluate[[]string](`window.__errs || []`))
			t.Logf("screenshot of the failure: %s (%v); the page's errors: %q", path, err, errs)
		}
		cancel()
		closeTab()
	})
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(url),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, cdppage.BringToFront, cdp.Empty{})
			return err
		}),
	))
	return ctx
}

// TestStaticSiteRunsTheWorld opens the static site as the README says
// (python3 -m http.server, no kafkalive behind it): it shows the three
// brokers, its clock advances, the terminal answers kafka-topics
// --describe, the scenarios are listed, and the Kafka clients panel says
// why there are no listeners and how to get them.
func TestStaticSiteRunsTheWorld(t *testing.T) {
	url, _ := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	ids := eval[[]string](t, ctx, `[...document.querySelectorAll("#brokers .broker")].map(b => b.dataset.broker)`)
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("the static site shows brokers %v, want the default world's 1,2,3", ids)
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`)))
	t0 := shownTime(t, ctx)
	time.Sleep(1500 * time.Millisecond)
	if t1 := shownTime(t, ctx); t1 < t0+1000 {
		t.Fatalf("the clock shows t=%d ms, then %d ms 1.5 s later: it does not advance", t0, t1)
	}
	waitText(t, ctx, "#kafka-clients", "cannot listen for Kafka clients")
	waitText(t, ctx, "#kafka-clients", "go run ./cmd/kafkalive")

	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-topics --describe\n"),
	))
	waitText(t, ctx, "#term-out", "\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3")

	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="life-of-a-record"]`),
		chromedp.WaitVisible(`[data-scenario="kip101-part3"]`),
	))
	screenshot(t, ctx, "static-site")
}

// TestStaticScenarioPlaysToItsEndAndItsLinkWorks plays a guided scenario
// in the static site to its end; then its link, opened in a new tab (a
// new world: each tab of the static site runs its own), shows the same
// scenario at the same step.
func TestStaticScenarioPlaysToItsEndAndItsLinkWorks(t *testing.T) {
	url, _ := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="life-of-a-record"]`),
		clickNow(`[data-scenario="life-of-a-record"]`),
		chromedp.WaitVisible(`#scen-play .play`),
	))
	var link string
	for i := 0; ; i++ {
		if i == 100 {
			t.Fatal("the scenario life-of-a-record did not end within 100 steps")
		}
		if eval[bool](t, ctx, `!!document.querySelector("#scen-done")`) {
			break
		}
		step := eval[string](t, ctx, `(document.querySelector("#scen-play h4") || {}).textContent || ""`)
		eval[bool](t, ctx, `(document.querySelector("#scen-play .choice[data-guess='1']:not([disabled])") || document.querySelector("#scen-next")).click() || true`)
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector("#scen-done") || ((document.querySelector("#scen-play h4") || {}).textContent || "") !== `+strconv.Quote(step), chromedp.WithPollingTimeout(20*time.Second)))
		require.NoError(t, err, "step %q did not play; the scenario panel says: %s", step, text(t, ctx, "#scen-play"))
		if i == 1 {
			link = eval[string](t, ctx, `location.href`)
		}
	}
	if !strings.Contains(text(t, ctx, "#mode"), "scenario") {
		t.Fatalf("the page says %q while a scenario is shown", text(t, ctx, "#mode"))
	}
	require.Contains(t, link, "scenario=life-of-a-record", "the page's address after two steps does not name the scenario")
	title := eval[string](t, ctx, `(document.querySelector("#scen-play h4") || {}).textContent || ""`)
	screenshot(t, ctx, "static-scenario-end")

	shared := staticTab(t, link)
	_, err := chromedp.Run(shared, chromedp.Poll[bool](`!!document.querySelector("#scen-play h4")`, chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the shared link %s shows no scenario step", link)
	if got := location(t, shared); !strings.Contains(got, "scenario=life-of-a-record") || !strings.Contains(got, "step=2") {
		t.Errorf("the shared link %s became %s", link, got)
	}
	if got := eval[string](t, shared, `document.querySelector("#scen-play h4").textContent`); got == title {
		t.Errorf("the shared link of step 2 shows the scenario's last step %q", got)
	}
}

// TestStaticTimelineDragBack kills a broker in the static site's world,
// drags the timeline back, and finds it running there.
func TestStaticTimelineDragBack(t *testing.T) {
	url, _ := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	// a moment to go back to: the world starts when the page has loaded it
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.time) >= 1000`, chromedp.WithPollingTimeout(30*time.Second)))
	require.NoError(t, err, "the static site's clock did not reach t=1 s")
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`button[data-cmd="kill 2"]`),
		chromedp.WaitVisible(`.broker[data-broker="2"][data-state="crashed"]`),
	))
	killedAt := shownTime(t, ctx)
	time.Sleep(2 * time.Second)
	box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#tl").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	require.NoError(t, chromedp.Do(ctx, drag(box[0]+box[2]-4, box[0]+2, box[1]+box[3]/2)))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#past-banner`)), "the page does not say it shows the past after the drag")
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`Number(document.body.dataset.time) < %d && !!document.querySelector('.broker[data-broker="2"][data-state="running"]')`, killedAt), chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("after dragging the timeline back (the slider at %s) the page shows t=%d ms with brokers %v; want a moment before broker 2 was killed at %d ms, with it running",
			eval[string](t, ctx, `document.querySelector("#tl").value`), shownTime(t, ctx), eval[[]string](t, ctx, `[...document.querySelectorAll("#brokers .broker")].map(b => b.dataset.state)`), killedAt)
	}
	screenshot(t, ctx, "static-timeline-back")
}

// frameWatch records the gaps between the page's animation frames:
// window.__frames.max is the largest since start (ms), n the frames.
const frameWatch = `(() => {
  const s = window.__frames = {max: 0, n: 0, last: performance.now(), top: []};
  const f = (now) => { const g = now - s.last; if (g > s.max) s.max = g; if (g > 60) s.top.push([Math.round(now), Math.round(g)]); s.last = now; s.n++; requestAnimationFrame(f); };
  requestAnimationFrame(f);
  s.long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) s.long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({type: "longtask"});
  return true;
})()`

// frames is what frameWatch recorded.
type frames struct {
	Max  float64     `json:"max"`
	N    int         `json:"n"`
	Top  [][]float64 `json:"top"`
	Long [][]float64 `json:"long"`
}

// MaxFrameGapMs is the longest the page may go without drawing a frame
// while the world works: a quarter of a second.
const MaxFrameGapMs = 250

// TestStaticLongRunNeverFreezesThePage types "run 600000" (ten simulated
// minutes) in the static site's terminal: the page keeps drawing (no gap
// between two animation frames over MaxFrameGapMs, for the whole run),
// and its clock keeps moving during the run (the Worker answers between
// the run's steps), until the run's output comes.
//
// A gap between frames measures the machine's load as well as the page,
// and go test ./... runs packages side by side (a compiler on each core
// stalls any page), so the test runs with KAFKALIVE_FRAME_GAPS=1 only:
// .ci/run runs it alone, after the rest.
func TestStaticLongRunNeverFreezesThePage(t *testing.T) {
	if os.Getenv("KAFKALIVE_FRAME_GAPS") == "" {
		t.Skip("set KAFKALIVE_FRAME_GAPS=1 to measure the gaps between frames during a long run (alone on the machine: .ci/run does)")
	}
	url, _ := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`)))
	eval[bool](t, ctx, frameWatch)
	start := shownTime(t, ctx)
	began := time.Now()
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "run 600000\n"),
	))
	var seen []int64
	for {
		if strings.Contains(text(t, ctx, "#term-out"), "(type events)") {
			break
		}
		if time.Since(began) > 150*time.Second {
			t.Fatalf("run 600000 did not end in 150 s; the page showed t=%v", seen)
		}
		if now := shownTime(t, ctx); len(seen) == 0 || now != seen[len(seen)-1] {
			seen = append(seen, now)
		}
		time.Sleep(200 * time.Millisecond)
	}
	took := time.Since(began)
	f := eval[frames](t, ctx, `window.__frames`)
	t.Logf("gaps over 60 ms: %v", f.Top)
	t.Logf("long tasks on the main thread: %v", f.Long)
	st := eval[map[string]float64](t, ctx, `window.__stats`)
	t.Logf("page stats: %v", st)
	t.Logf("run 600000 took %v in the Worker; the page drew %d frames, the longest gap %.0f ms; the clock showed %d moments during it", took.Round(time.Millisecond), f.N, f.Max, len(seen))
	if f.Max > MaxFrameGapMs {
		t.Errorf("the page went %.0f ms without a frame during run 600000 (at most %d)", f.Max, MaxFrameGapMs)
	}
	inside := 0
	for _, ms := range seen {
		if ms > start+1000 && ms < start+599_000 {
			inside++
		}
	}
	if inside < 3 {
		t.Errorf("the page showed %d moments inside the run (times %v from t=%d): the Worker did not answer while it ran", inside, seen, start)
	}
	screenshot(t, ctx, "static-long-run")
}

// TestStaticSiteWorksOffline visits the static site once, stops its
// server, and opens it again: the service worker serves it, and the
// world runs.
func TestStaticSiteWorksOffline(t *testing.T) {
	url, stop := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "the service worker did not get ready")
	stop()
	offline := staticTab(t, url+"?offline=1")
	require.NoError(t, chromedp.Do(offline, chromedp.WaitVisible(`.rec`)), "the static site did not run with its server stopped")
	screenshot(t, offline, "static-offline")
}

// TestStaticAccessibility runs axe-core on the static site's page, live
// and with the Kafka clients panel saying why it has no listeners.
func TestStaticAccessibility(t *testing.T) {
	script := axeScript(t)
	url, _ := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.WaitVisible(`.rec`), chromedp.WaitVisible(`#kafka-clients`), chromedp.Sleep(500*time.Millisecond)))
	runAxe(t, ctx, script, "static site, live")
	require.NoError(t, chromedp.Do(ctx, clickNow(`#pause`), chromedp.EmulateViewport(390, 844), chromedp.Sleep(500*time.Millisecond)))
	runAxe(t, ctx, script, "static site, phone")
}

// TestStaticSiteSaysWhenTheWorldCannotStart serves a site whose
// WebAssembly is missing (a partial upload): the page says that the world
// could not start and why, instead of waiting for it.
func TestStaticSiteSaysWhenTheWorldCannotStart(t *testing.T) {
	src := staticSite(t)
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	require.NoError(t, os.Remove(filepath.Join(dir, "kafkalive.wasm")))
	url, _ := serveStatic(t, dir)
	ctx := openTab(t, url, time.Minute)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#internal-banner`)), "the page does not say the world could not start")
	waitText(t, ctx, "#internal-banner", "the world could not start")
	waitText(t, ctx, "#internal-banner", "kafkalive.wasm: 404")
	screenshot(t, ctx, "static-cannot-start")
}

// TestStaticSiteGivesWayToAServer opens the static site, then serves a
// kafkalive server at the same address (its sw.js has no manifest): the
// site's service worker removes itself and its caches, and the page is
// the server's from the next load on, not the site's kept copy.
func TestStaticSiteGivesWayToAServer(t *testing.T) {
	url, stop := serveStatic(t, staticSite(t))
	ctx := staticTab(t, url)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "the service worker did not get ready")
	stop()
	live, err := web.NewLive()
	require.NoError(t, err)
	srv := web.NewServer(live, web.NewTerminal(live), nil)
	var ln net.Listener
	for i := 0; ; i++ {
		if ln, err = net.Listen("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")); err == nil {
			break
		}
		if i == 50 {
			t.Fatalf("the static site's address did not come free: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	runCtx, stopRun := context.WithCancel(context.Background())
	t.Cleanup(stopRun)
	go srv.Run(runCtx)

	// The first load may come from the kept copy; the browser then finds
	// the server's sw.js, which removes the site and loads the page again.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	server := `!document.querySelector('meta[name="kafkalive-world"]') && !navigator.serviceWorker.controller && !!document.querySelector('.broker[data-broker="3"]')`
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		// the page may be loading again under the evaluation: ask again
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](server)); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("30 s after a load with a server at its address the page is still the static site's kept copy")
		}
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`caches.keys().then((ks) => ks.filter((k) => k.startsWith("kafkalive-")).length)`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	if n != 0 {
		t.Errorf("%d of the static site's caches are left", n)
	}
}
