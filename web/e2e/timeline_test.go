package e2e

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// thumb returns where the timeline's thumb is at its right end (live) and
// the slider's left end, in the viewport: x of the thumb, x of the left
// end, y of both.
func thumb(t *testing.T, ctx context.Context) (right, left, y float64) {
	t.Helper()
	box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#tl").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	return box[0] + box[2] - 7, box[0] + 7, box[1] + box[3]/2
}

// pastState is what the page shows after the timeline was moved: the
// moment shown, the live world's time, whether the past banner shows, and
// where the slider stands.
type pastState struct {
	Shown, Now       int64
	Banner           bool
	Value, Max       float64
	Label, Valuetext string
}

func readPast(t *testing.T, ctx context.Context) pastState {
	t.Helper()
	return eval[pastState](t, ctx, `(() => { const tl = document.querySelector("#tl");
		return {Shown: Number(document.body.dataset.time), Now: Number(tl.max), Banner: !document.querySelector("#past-banner").hidden,
			Value: Number(tl.value), Max: Number(tl.max), Label: document.querySelector("#tl-label").textContent, Valuetext: tl.getAttribute("aria-valuetext") || ""}; })()`)
}

// landsInThePast waits until the page shows a past moment and checks it
// stays there while the live clock runs on.
func landsInThePast(t *testing.T, ctx context.Context, how string) pastState {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector("#past-banner").hidden && Number(document.body.dataset.time) <= Number(document.querySelector("#tl").value) && Number(document.querySelector("#tl").value) < Number(document.querySelector("#tl").max)`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("%s: the page does not show the past: %+v", how, readPast(t, ctx))
	}
	first := readPast(t, ctx)
	time.Sleep(1500 * time.Millisecond) // fifteen live updates
	s := readPast(t, ctx)
	if !s.Banner || s.Shown != first.Shown || s.Shown >= s.Now || s.Value >= s.Max {
		t.Fatalf("%s: the timeline did not stay in the past while the clock ran: first %+v, then %+v", how, first, s)
	}
	return s
}

// TestTimelineDragFromLiveWithAMouse drags the thumb from "live" with a real
// mouse as a hand does, while the clock runs: a press, a move of two pixels
// and a pause in which live updates arrive, a release; then a longer drag
// with a slow start and pauses. Each must land in the past and stay there:
// the live updates never pull the held thumb back to the present, and a
// move of a pixel or two from the right end is a move into the past. A
// press and release that does not move stays live.
func TestTimelineDragFromLiveWithAMouse(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.WaitVisible(`.rec`), chromedp.Sleep(2*time.Second)))
	left := input.MouseButtonLeft
	press := func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonType(left), chromedp.ClickCount(1)))
	}
	move := func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonType(left))
	}
	release := func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonType(left), chromedp.ClickCount(1))
	}
	backToLive := func() {
		require.NoError(t, chromedp.Do(ctx, clickNow(`#tl-live`), chromedp.WaitNotVisible(`#past-banner`), chromedp.Sleep(300*time.Millisecond)))
	}

	// two pixels, a pause, a release
	x, _, y := thumb(t, ctx)
	require.NoError(t, chromedp.Do(ctx, press(x, y), chromedp.Sleep(200*time.Millisecond),
		move(x-2, y), chromedp.Sleep(500*time.Millisecond), release(x-2, y)))
	landsInThePast(t, ctx, "a drag of two pixels from live")
	backToLive()

	// a slow start, pauses, a longer way
	x, _, y = thumb(t, ctx)
	steps := []chromedp.Action[chromedp.Void]{press(x, y), chromedp.Sleep(300 * time.Millisecond)}
	for i := 1; i <= 6; i++ {
		steps = append(steps, move(x-float64(2*i), y), chromedp.Sleep(250*time.Millisecond))
	}
	steps = append(steps, move(x-60, y), chromedp.Sleep(400*time.Millisecond), release(x-60, y))
	require.NoError(t, chromedp.Do(ctx, chromedp.Steps(steps...)))
	if s := landsInThePast(t, ctx, "a slow drag from live"); s.Label == "live" || s.Valuetext == "live" {
		t.Fatalf("the page shows the past but says live: %+v", s)
	}
	backToLive()

	// a press and release on the thumb without moving stays live
	x, _, y = thumb(t, ctx)
	require.NoError(t, chromedp.Do(ctx, press(x, y), chromedp.Sleep(300*time.Millisecond), release(x, y), chromedp.Sleep(500*time.Millisecond)))
	if s := readPast(t, ctx); s.Banner {
		t.Fatalf("a click on the thumb at live went to the past: %+v", s)
	}
}

// TestTimelineDragFromLiveWithAFinger drags the thumb from live with touch
// events on a phone's screen.
func TestTimelineDragFromLiveWithAFinger(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch), chromedp.WaitVisible(`.rec`), chromedp.Sleep(2*time.Second)))
	x, _, y := thumb(t, ctx)
	touch := func(typ input.DispatchTouchEventType, x float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			pts := []*input.TouchPoint{{X: x, Y: y}}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	steps := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, x)}
	for i := 1; i <= 8; i++ {
		steps = append(steps, touch(input.DispatchTouchEventTypeTouchMove, x-float64(10*i)), chromedp.Sleep(30*time.Millisecond))
	}
	steps = append(steps, touch(input.DispatchTouchEventTypeTouchMove, x-80), chromedp.Sleep(400*time.Millisecond), touch(input.DispatchTouchEventTypeTouchEnd, x-80))
	require.NoError(t, chromedp.Do(ctx, chromedp.Steps(steps...)))
	landsInThePast(t, ctx, "a touch drag from live")
}

// TestTimelineKeys moves the timeline from live with the keyboard: the
// left arrow goes a second back and stays there while updates arrive,
// Page Down ten more, End back to live.
func TestTimelineKeys(t *testing.T) {
	ctx, _ := page(t, 5)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.WaitVisible(`.rec`), chromedp.Sleep(3*time.Second)))
	eval[bool](t, ctx, `(document.querySelector("#tl").focus(), true)`)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
	a := landsInThePast(t, ctx, "the left arrow from live")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.PageDown)))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.time) < `+strconv.FormatInt(a.Shown-5000, 10), chromedp.WithPollingTimeout(5*time.Second)))
	require.NoError(t, err, "Page Down did not go ten seconds further back from %+v: %+v", a, readPast(t, ctx))
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.End), chromedp.WaitNotVisible(`#past-banner`)))
}
