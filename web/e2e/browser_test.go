package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/web"
)

// browserNames are the executables tried, Debian's first.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  string
	// browserDir is the browser's profile (its caches and the static
	// site's service worker storage, about 200 MB after a run), and
	// browserStop ends the browser: closeBrowser does both.
	browserDir  string
	browserStop context.CancelFunc
)

// closeBrowser ends the shared browser, if one started, and removes its
// profile, so that runs of the tests do not fill the disk with them.
func closeBrowser() {
	if browserStop != nil {
		browserStop()
	}
	if browserDir != "" {
		os.RemoveAll(browserDir)
	}
}

// findBrowser returns the path of an installed Chromium, or "".
func findBrowser() string {
	if p := os.Getenv("KAFKALIVE_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range browserNames {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// browser returns the shared headless browser, or skips the test when none
// is installed.
func browser(t *testing.T) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path := findBrowser()
		if path == "" {
			browserErr = "no Chromium found (tried " + strings.Join(browserNames, ", ") + "): run .ci/install-browser to run the browser tests"
			return
		}
		dir, err := os.MkdirTemp("", "kafkalive-chromium-")
		if err != nil {
			browserErr = err.Error()
			return
		}
		browserDir = dir
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 800),
		}
		actx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, stopBrowser := chromedp.NewContext(actx)
		browserStop = func() { stopBrowser(); stopAlloc() }
		if err := chromedp.Do(bctx); err != nil {
			browserErr = "starting " + path + ": " + err.Error()
			return
		}
		browserCtx = bctx
	})
	if browserCtx == nil {
		if strings.HasPrefix(browserErr, "no Chromium") && os.Getenv("KAFKALIVE_REQUIRE_BROWSER") == "" {
			t.Skip(browserErr + " (set KAFKALIVE_REQUIRE_BROWSER=1 to make this a failure, as .ci/run does)")
		}
		t.Fatal(browserErr) // installed but broken: that must not pass as a skip
	}
	return browserCtx
}

// page serves a fresh default world at speed (virtual ms per wall ms) and
// opens it in a new tab of the shared browser.
func page(t *testing.T, speed int64) (context.Context, *web.Live) {
	t.Helper()
	b := browser(t)
	live, err := web.NewLive()
	require.NoError(t, err)
	srv := web.NewServer(live, web.NewTerminal(live), os.DirFS("../../notes"))
	srv.Speed = speed
	hs := httptest.NewServer(srv)
	runCtx, stopRun := context.WithCancel(context.Background())
	go srv.Run(runCtx)
	tab, closeTab := chromedp.NewContext(b)
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			// the test's context may have run out: take the picture on
			// a fresh one
			shot, stop := context.WithTimeout(tab, 10*time.Second)
			path, err := saveScreenshot(shot, "failed-"+t.Name())
			stop()
			t.Logf("screenshot of the failure: %s (%v)", path, err)
		}
		cancel()
		closeTab()
		stopRun()
		hs.CloseClientConnections()
		hs.Close()
	})
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(hs.URL+"/"),
		chromedp.WaitVisible(`.broker[data-broker="3"]`),
	))
	return ctx, live
}

// screenshot keeps a picture of the page as test output and logs its path.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	path, err := saveScreenshot(ctx, name)
	require.NoError(t, err)
	t.Logf("screenshot: %s", path)
}

// saveScreenshot writes a picture of the page to the screenshot directory.
func saveScreenshot(ctx context.Context, name string) (string, error) {
	dir := os.Getenv("KAFKALIVE_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "kafkalive-e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".png")
	return path, os.WriteFile(path, png, 0o644)
}
