package e2e

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestMeasureStaticSite measures the static site side by side with what
// it is measured against, in one run (KAFKALIVE_MEASURE=1; about ten
// minutes):
//
//   - the default world's simulated minute natively and in WebAssembly
//     (web/tab's benchmarks, go test -bench natively and with GOOS=js
//     GOARCH=wasm under node), medians of five and their ratio;
//   - the updates a second the page renders at 1x and 20x, from the
//     static site's Worker and from the server;
//   - the WebAssembly memory of the static site's world through a
//     simulated hour at 20x (three minutes), which must stay under 300 MB.
func TestMeasureStaticSite(t *testing.T) {
	if os.Getenv("KAFKALIVE_MEASURE") == "" {
		t.Skip("set KAFKALIVE_MEASURE=1 to measure the static site (about ten minutes)")
	}
	dir := staticSite(t)
	measureMinute(t)
	url, _ := serveStatic(t, dir)
	t.Run("updates", func(t *testing.T) {
		ctx := staticTab(t, url)
		serverCtx, _ := page(t, 1)
		for _, speed := range []int{1, 20} {
			for _, p := range []struct {
				name string
				ctx  context.Context
			}{{"static site (Worker)", ctx}, {"server", serverCtx}} {
				setSpeed(t, p.ctx, speed)
				t.Logf("%s at %dx: %.1f updates/s rendered", p.name, speed, updateRate(t, p.ctx, 5*time.Second))
			}
		}
	})
	t.Run("hour", func(t *testing.T) { measureHour(t, url) })
}

// measureHour runs the static site's world for a simulated hour at 20x
// and logs its memory every 20 s: the WebAssembly memory must stay under
// 300 MB.
func measureHour(t *testing.T, url string) {
	ctx := openTab(t, url, 20*time.Minute)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`)))
	setSpeed(t, ctx, 20)
	began := time.Now()
	var peak float64
	for {
		st, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](`window.__tabStats()`, chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		mib := st["wasm_bytes"] / (1 << 20)
		peak = max(peak, mib)
		t.Logf("t=%4.1f min (after %v): WebAssembly memory %.0f MiB, Go heap %.0f MiB, Go runtime %.0f MiB",
			st["t"]/60_000, time.Since(began).Round(time.Second), mib, st["heap_bytes"]/(1<<20), st["sys_bytes"]/(1<<20))
		if st["t"] >= 3_600_000 {
			break
		}
		if time.Since(began) > 12*time.Minute {
			t.Fatalf("the static site's world reached only t=%.0f s in 12 minutes at 20x", st["t"]/1000)
		}
		time.Sleep(20 * time.Second)
	}
	t.Logf("a simulated hour at 20x took %v; the WebAssembly memory peaked at %.0f MiB", time.Since(began).Round(time.Second), peak)
	if peak*(1<<20) >= 300e6 {
		t.Errorf("the static site's world took %.0f MiB of WebAssembly memory in a simulated hour at 20x: over 300 MB", peak)
	}
}

// setSpeed chooses the clock's speed in the page's select.
func setSpeed(t *testing.T, ctx context.Context, x int) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.querySelector("#speed"); s.value = "%d"; s.dispatchEvent(new Event("change")); return true; })()`, x))
	time.Sleep(time.Second)
}

// updateRate counts the updates the page renders in d, a second.
func updateRate(t *testing.T, ctx context.Context, d time.Duration) float64 {
	t.Helper()
	read := func() float64 { return eval[float64](t, ctx, `(window.__stats || {updates: 0}).updates`) }
	a := read()
	time.Sleep(d)
	return (read() - a) / d.Seconds()
}

// benchLine is a line of go test -bench's output: name, iterations, ns/op.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(\d+(?:\.\d+)?) ns/op`)

// measureMinute runs web/tab's benchmarks natively and in WebAssembly
// under node, in five rounds of one of each, and logs the medians side by
// side with the median of the rounds' ratios (a shared machine drifts:
// only a ratio within a round compares like with like).
func measureMinute(t *testing.T) {
	t.Helper()
	root, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	wasmExec := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm")
	run := func(wasm bool) map[string]float64 {
		// 3x: the framework's first, cold run of each benchmark is not
		// the one reported, and V8 compiles WebAssembly with a quick
		// compiler first and the hot functions again, optimized, later
		cmd := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchtime", "3x", "-count", "1", "./web/tab")
		cmd.Dir = "../.."
		cmd.Env = os.Environ()
		if wasm {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm", "PATH="+wasmExec+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		got := map[string]float64{}
		for _, l := range strings.Split(string(out), "\n") {
			if m := benchLine.FindStringSubmatch(l); m != nil {
				got[m[1]], _ = strconv.ParseFloat(m[2], 64)
			}
		}
		return got
	}
	native, wasm, ratio := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for round := 0; round < 5; round++ {
		n, w := run(false), run(true)
		for name, ns := range n {
			native[name] = append(native[name], ns)
			wasm[name] = append(wasm[name], w[name])
			ratio[name] = append(ratio[name], w[name]/ns)
		}
	}
	names := slices.Sorted(maps.Keys(native))
	for _, n := range names {
		t.Logf("%-30s native %7.0f ms   wasm (node) %7.0f ms   wasm/native %.2fx (median of the rounds' ratios %.2f-%.2f)",
			n, median(native[n])/1e6, median(wasm[n])/1e6, median(ratio[n]), slices.Min(ratio[n]), slices.Max(ratio[n]))
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}
