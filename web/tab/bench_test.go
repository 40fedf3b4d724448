package tab

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/web"
)

// The benchmarks below build and run the same on both platforms: natively
// (go test -bench .) and as the browser runs them (GOOS=js GOARCH=wasm go
// test -bench . under node, with the toolchain's go_js_wasm_exec on PATH).
// The static site's measurement (web/e2e, KAFKALIVE_MEASURE=1) runs both in
// one go and prints them side by side.

// BenchmarkDefaultWorldMinute runs the tab's default world ([Config]) for
// its first simulated minute, from its making: the world alone.
func BenchmarkDefaultWorldMinute(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		w, err := defaultworld.NewWith(Config())
		if err != nil {
			b.Fatal(err)
		}
		if err := w.RunFor(60_000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorkerMinute is a simulated minute as the Worker serves it to
// a page, at 1x and 20x: the clock's steps (100 ms of wall time, times the
// speed, each) and after each the update the page gets (web.Live.ViewJSON).
// At 1x that is 600 updates a minute, at 20x 30, so the time per op over
// the minute's wall time (60 s, 3 s) is the share of a core the Worker
// needs to keep up.
func BenchmarkWorkerMinute(b *testing.B) {
	for _, speed := range []int64{1, 20} {
		b.Run(map[int64]string{1: "1x", 20: "20x"}[speed], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				live, err := web.NewLiveConfig(Config())
				if err != nil {
					b.Fatal(err)
				}
				live.SetSpeed(speed)
				for ms := int64(0); ms < 60_000; ms += 100 * speed {
					if err := live.Advance(100); err != nil {
						b.Fatal(err)
					}
					if _, _, err := live.ViewJSON(web.Focus{Topic: "orders"}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
