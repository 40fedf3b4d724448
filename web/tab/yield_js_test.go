package tab

import (
	"context"
	"io"
	"sync/atomic"
	"syscall/js"
	"testing"

	"github.com/kafkalive/kafkalive/web"
)

// A long terminal run gives the event loop its turns: a JavaScript timer
// set before "run 20000" (twenty steps of a simulated second) fires while
// the run goes on, not after it. Without the yield between two steps, Go's
// js/wasm runtime would keep the event loop until the run ended, and a
// Worker would read none of the page's messages meanwhile.
func TestLongRunYieldsToTheEventLoop(t *testing.T) {
	live, err := web.NewLive()
	if err != nil {
		t.Fatal(err)
	}
	var running, firedDuring atomic.Bool
	fired := make(chan struct{}, 1)
	cb := js.FuncOf(func(js.Value, []js.Value) any {
		firedDuring.Store(running.Load())
		fired <- struct{}{}
		return nil
	})
	defer cb.Release()
	running.Store(true)
	js.Global().Call("setTimeout", cb, 0)
	err = live.Exec(context.Background(), web.NewTerminal(live), "run 20000", nil, io.Discard)
	running.Store(false)
	if err != nil {
		t.Fatal(err)
	}
	<-fired
	if !firedDuring.Load() {
		t.Fatal("a timer set before run 20000 fired only after the run: the run kept the event loop to itself")
	}
}
