package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// shownTime returns the virtual time of the state the page shows.
func shownTime(t *testing.T, ctx context.Context) int64 {
	t.Helper()
	a, err := chromedp.Run(ctx, chromedp.AttributeValue(`body`, "data-time"))
	require.NoError(t, err)
	ms, err := strconv.ParseInt(a.Value, 10, 64)
	require.NoError(t, err, "body data-time %q", a.Value)
	return ms
}

func TestPageShowsThreeBrokers(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`))) // records have arrived
	ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#brokers .broker")].map(b => b.dataset.broker)`))
	require.NoError(t, err)
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("the page shows brokers %v, want the default world's 1,2,3", ids)
	}
	screenshot(t, ctx, "three-brokers")
}

func TestPowerCutChangesPartitionView(t *testing.T) {
	ctx, _ := page(t, 4)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`.logrow[data-log="1"][data-role="leader"]`),
		// Broker 1 hosts the active controller (KRaft combined mode).
		chromedp.WaitVisible(`.broker[data-broker="1"] .ctl-badge`),
		clickNow(`button[data-cmd="power-cut 1"]`),
		// The voters elect broker 2 after the failover time.
		chromedp.WaitVisible(`.broker[data-broker="2"] .ctl-badge`),
		// At once: broker 1's replica is down, read back from its disk.
		chromedp.WaitVisible(`.broker[data-broker="1"][data-state="off"]`),
		chromedp.WaitVisible(`.logrow[data-log="1"][data-role="down"]`),
		// After broker.session.timeout.ms the controller fences it and
		// elects another leader; broker 1 leaves the ISR (crossed).
		chromedp.WaitVisible(`.logrow[data-log="1"][data-in-isr="false"]`),
		chromedp.WaitVisible(`.logrow[data-role="leader"]:not([data-log="1"])`),
	))
	screenshot(t, ctx, "power-cut")
}

func TestTimelineDragBackShowsEarlierState(t *testing.T) {
	ctx, _ := page(t, 4)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`.rec`),
		clickNow(`button[data-cmd="kill 2"]`),
		chromedp.WaitVisible(`.broker[data-broker="2"][data-state="crashed"]`),
	))
	killedAt := shownTime(t, ctx)
	time.Sleep(2 * time.Second) // let time pass after the crash
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#tl").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
	require.NoError(t, err)
	y := box[1] + box[3]/2
	// Drag the timeline's thumb from the right end to the left end (the
	// kill may have come early: any moment after it would show broker 2
	// crashed).
	require.NoError(t, chromedp.Do(ctx, drag(box[0]+box[2]-4, box[0]+2, y)))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`#past-banner`)), "the page does not say it shows the past after the drag")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.broker[data-broker="2"][data-state="running"]`)), "broker 2 is not running in the past")
	if at := shownTime(t, ctx); at >= killedAt {
		t.Fatalf("after dragging the timeline back the page shows t=%d ms, not a moment before broker 2 was killed at %d ms", at, killedAt)
	}
	screenshot(t, ctx, "timeline-back")

	// Acting from there forks a new future: broker 3 stops in a world
	// where broker 2 was never killed.
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`button[data-cmd="stop 3"]`),
		chromedp.WaitNotVisible(`#past-banner`),
		chromedp.WaitVisible(`.broker[data-broker="3"][data-state="stopped"]`),
	))
	states, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#brokers .broker")].map(b => b.dataset.state)`))
	require.NoError(t, err)
	if states[1] != "running" {
		t.Fatalf("after acting from before the kill, broker 2 is %s in the new future; want running", states[1])
	}
	screenshot(t, ctx, "timeline-fork")
}

func TestTerminalDescribesTopics(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-topics --describe\n"),
		chromedp.WaitVisible(`#term-out .cmd`),
	))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#term-out").textContent.includes("Topic: profiles")`, chromedp.WithPollingTimeout(10*time.Second)))
	require.NoError(t, err)
	out, err := chromedp.Run(ctx, chromedp.TextContent(`#term-out`))
	require.NoError(t, err)
	for _, want := range []string{
		"Topic: orders\tTopicId: ", "PartitionCount: 3\tReplicationFactor: 3",
		"\tTopic: orders\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3",
		"\tTopic: orders\tPartition: 2\tLeader: 3\tReplicas: 3,1,2",
		"Topic: profiles\tTopicId: ",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("the terminal printed\n%s\nwithout %q", out, want)
		}
	}
	screenshot(t, ctx, "terminal")
}

func TestProducerFormChangesTheProducer(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`.producer[data-producer="profile-svc"]`),
		clickNow(`button[data-edit-producer="profile-svc"]`),
		chromedp.WaitVisible(`#producer-form`),
	))
	rate, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#pf-rate").value`))
	require.NoError(t, err)
	if rate != "1.5" {
		t.Fatalf("the form shows profile-svc's rate as %q, want the issue's 1.5", rate)
	}
	screenshot(t, ctx, "producer-form")
	_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector("#pf-rate").value = "4"; document.querySelector("#pf-acks").value = "1"; document.querySelector("#pf-keys").value = ""; document.querySelector("#producer-form button[type=submit]").click(); return true; })()`))
	require.NoError(t, err)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`(document.querySelector('.producer[data-producer="profile-svc"]') || {}).textContent.includes("4/s · acks=1 · linger.ms=5 · no keys")`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		txt, _ := chromedp.Run(ctx, chromedp.TextContent(`#producers`))
		t.Fatalf("after applying rate 4, acks 1, no keys the producers panel says:\n%s", txt)
	}
	out, err := chromedp.Run(ctx, chromedp.TextContent(`#term-out`))
	require.NoError(t, err)
	if !strings.Contains(out, "set-producer profile-svc rate=4 acks=1 keys=none") {
		t.Fatalf("the form did not type set-producer in the terminal; it shows:\n%s", out)
	}
}

func TestTerminalDumpsABrokersSegment(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(`.rec`),
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-dump-log --files /kafka-logs/orders-0/00000000000000000000.log --print-data-log\n"),
	))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#term-out").textContent.includes("| offset: 0 ")`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		out, _ := chromedp.Run(ctx, chromedp.TextContent(`#term-out`))
		t.Fatalf("kafka-dump-log printed no record:\n%s", out)
	}
	screenshot(t, ctx, "dump-log")
}

func TestScenarioPlaysToItsEnd(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(`.tabs button[data-tab="scen"]`),
		chromedp.WaitVisible(`[data-scenario="life-of-a-record"]`),
		chromedp.Click(`[data-scenario="life-of-a-record"]`),
		chromedp.WaitVisible(`#scen-play .play`),
	))
	for i := 0; ; i++ {
		if i == 100 {
			t.Fatal("the scenario life-of-a-record did not end within 100 steps")
		}
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector("#scen-done")`))
		require.NoError(t, err)
		if done {
			break
		}
		step, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#scen-play h4") || {}).textContent || ""`))
		require.NoError(t, err)
		_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("#scen-play .choice[data-guess='1']:not([disabled])") || document.querySelector("#scen-next")).click() || true`))
		require.NoError(t, err)
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector("#scen-done") || ((document.querySelector("#scen-play h4") || {}).textContent || "") !== `+strconv.Quote(step), chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil {
			txt, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(window.__errs || []).join("\\n") + "\\n" + document.querySelector("#scen-play").textContent`))
			t.Fatalf("step %q did not play: %v; the scenario panel says:\n%s", step, err, txt)
		}
	}
	mode, err := chromedp.Run(ctx, chromedp.TextContent(`#mode`))
	require.NoError(t, err)
	if !strings.Contains(mode, "scenario") {
		t.Fatalf("the page says %q while a scenario is shown", mode)
	}
	screenshot(t, ctx, "scenario-end")
}

// drag presses the mouse at x1, moves it to x2 in steps and releases it, as
// a user drags a range input's thumb.
func drag(x1, x2, y float64) chromedp.Action[chromedp.Void] {
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x1, y, chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1))}
	for i := 1; i <= 10; i++ {
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x1+(x2-x1)*float64(i)/10, y, chromedp.ButtonType(input.MouseButtonLeft)), chromedp.Sleep(30*time.Millisecond))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x2, y, chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	return chromedp.Steps(steps...)
}

// TestPageKeepsUpWithUpdates counts the updates the page receives and
// renders in three seconds of the live cluster: the server sends ten a
// second, and the page must keep up (at least eight, leaving room for a loaded machine).
func TestPageKeepsUpWithUpdates(t *testing.T) {
	ctx, _ := page(t, 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`.rec`)))
	type stats struct {
		Updates int     `json:"updates"`
		Bytes   int     `json:"bytes"`
		Ms      float64 `json:"ms"`
	}
	read := func() stats {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[stats](`window.__stats || {updates: 0, bytes: 0, ms: 0}`))
		require.NoError(t, err)
		return s
	}
	a := read()
	time.Sleep(3 * time.Second)
	b := read()
	n := b.Updates - a.Updates
	rate := float64(n) / 3
	if rate < 8 { // 10 nominal; 8 leaves room for a loaded CI machine
		t.Fatalf("the page received and rendered %.1f updates a second; it must keep up with the server's 10", rate)
	}
	t.Logf("the page rendered %.1f updates/s, %d bytes each on average, %.2f ms each to parse and render",
		rate, (b.Bytes-a.Bytes)/max(n, 1), (b.Ms-a.Ms)/float64(max(n, 1)))
}

// clickNow clicks the element sel names in one step in the page: the panels
// are redrawn up to ten times a second, so a click by node id could reach
// a node that was just replaced.
func clickNow(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ok, err := chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); if (e) e.click(); return !!e; })()`)(ctx, t)
		if err == nil && !ok {
			err = fmt.Errorf("no element %s to click", sel)
		}
		return err
	})
}
