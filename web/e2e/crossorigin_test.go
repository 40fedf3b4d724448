package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/web"
)

// evilPage is a page of another site: it tries to stop broker 2, reset
// and pause the world in every way a page can without the server's
// consent (no-cors fetches, a text/plain form that smuggles JSON, a JSON
// fetch, which needs a preflight), and to read the view and the stream.
// Each attempt's outcome goes to window.__results; window.__done is set
// when all have ended.
const evilPage = `<!doctype html><html><body>
<iframe name="sink" id="sink"></iframe>
<form id="f" method="POST" action="TARGET/api/exec" enctype="text/plain" target="sink">
<input name='{"line": "stop 2", "x": "' value='"}'></form>
<script>
const T = "TARGET";
const results = window.__results = {};
const attempt = async (name, fn) => {
  try { results[name] = await fn(); } catch (e) { results[name] = "rejected: " + e.name; }
};
(async () => {
  const line = JSON.stringify({line: "stop 2"});
  await attempt("reset no-cors", async () => (await fetch(T + "/api/reset", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: "{}"})).type);
  await attempt("pause no-cors", async () => (await fetch(T + "/api/pause", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: JSON.stringify({paused: true})})).type);
  await attempt("exec no-cors text/plain", async () => (await fetch(T + "/api/exec", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: line})).type);
  await attempt("exec no-cors query", async () => (await fetch(T + "/api/exec?line=stop+2", {method: "POST", mode: "no-cors", body: "line=stop+2"})).type);
  await attempt("exec json", async () => (await fetch(T + "/api/exec", {method: "POST", headers: {"Content-Type": "application/json"}, body: line})).status);
  await attempt("read view", async () => "read: " + (await (await fetch(T + "/api/view")).text()).slice(0, 40));
  await attempt("read stream", () => new Promise((ok) => {
    const es = new EventSource(T + "/api/stream");
    es.addEventListener("frame", (e) => { es.close(); ok("read: " + e.data.slice(0, 40)); });
    es.onerror = () => { es.close(); ok("rejected: error"); };
  }));
  await new Promise((ok) => document.readyState === "complete" ? ok() : addEventListener("load", ok)); // the frame's first load is over
  await attempt("form post", () => new Promise((ok) => {
    document.getElementById("sink").onload = () => ok("submitted");
    document.getElementById("f").submit();
  }));
  window.__done = true;
})();
</script></body></html>`

// rebindingBrowser starts a headless Chromium of its own in which
// evil.example resolves to 127.0.0.1, as a rebound DNS name would.
func rebindingBrowser(t *testing.T) context.Context {
	t.Helper()
	browser(t) // skips, or fails, as every browser test does when there is no Chromium
	dir := t.TempDir()
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(findBrowser()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"),
		chromedp.UserDataDir(dir),
	)
	bctx, cancel := chromedp.NewContext(actx)
	ctx, stop := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(func() {
		stop()
		cancel()
		cancelAlloc()
	})
	return ctx
}

// TestAnotherSiteCannotDriveTheCluster serves the page, and from another
// port (another origin of the same host) a page that tries to stop
// broker 2, reset and pause the world, and read the view and the stream:
// every attempt fails and the world is unchanged. A rebound name
// (evil.example resolving to the server) reads nothing either. Then the
// page itself stops broker 2, which shows the attempts could have
// worked had the server allowed them.
func TestAnotherSiteCannotDriveTheCluster(t *testing.T) {
	ctx := rebindingBrowser(t)
	live, err := web.NewLive()
	require.NoError(t, err)
	hs := httptest.NewServer(web.NewServer(live, web.NewTerminal(live), os.DirFS("../../notes")))
	defer func() {
		hs.CloseClientConnections() // the page's stream
		hs.Close()
	}()
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, strings.ReplaceAll(evilPage, "TARGET", hs.URL))
	}))
	defer evil.Close()
	before := live.Version()

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(evil.URL+"/")))
	for {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!window.__done`))
		require.NoError(t, err, "the foreign page's attempts did not end")
		if done {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	results, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`window.__results`))
	require.NoError(t, err)
	t.Logf("the foreign page's attempts: %v", results)
	for _, name := range []string{"exec json", "read view"} {
		if r := fmt.Sprint(results[name]); !strings.HasPrefix(r, "rejected") {
			t.Errorf("%s from another origin: %s, want it rejected by the browser", name, r)
		}
	}
	if r := fmt.Sprint(results["read stream"]); strings.HasPrefix(r, "read") {
		t.Errorf("the foreign page read the stream: %s", r)
	}

	// A rebound name: the server refuses it, whatever the page.
	rebound := strings.Replace(hs.URL, "127.0.0.1", "evil.example", 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(rebound+"/api/view")))
	body, err := chromedp.Run(ctx, chromedp.Text("body"))
	require.NoError(t, err)
	if strings.Contains(body, `"brokers"`) || !strings.Contains(body, web.ErrForeignHost.Error()) {
		t.Errorf("%s/api/view showed %.120q; want the server's refusal and no view", rebound, body)
	}

	if v := live.Version(); v != before {
		t.Errorf("the foreign page changed the world (version %d -> %d)", before, v)
	}
	states := func() map[int32]string {
		v, err := live.View(web.Focus{}, nil)
		require.NoError(t, err)
		out := map[int32]string{}
		for _, b := range v.Brokers {
			out[b.ID] = b.State
		}
		if v.Paused {
			out[0] = "paused"
		}
		return out
	}
	if diff := cmp.Diff(map[int32]string{1: "running", 2: "running", 3: "running"}, states()); diff != "" {
		t.Errorf("after the foreign page's attempts (-want +got):\n%s", diff)
	}

	// The page itself can: the same request from its own origin stops
	// broker 2.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(`.broker[data-broker="3"]`)))
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`import("/js/transport.js").then((m) => m.httpTransport().post("/api/exec", {line: "stop 2"})).then((r) => r.status)`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	if diff := cmp.Diff(map[int32]string{1: "running", 2: "stopped", 3: "running"}, states()); status != http.StatusOK || diff != "" {
		t.Errorf("the page's own stop 2: status %d, brokers (-want +got):\n%s", status, diff)
	}
}
