package web

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

var (
	tabsN    = flag.Int("tabs.n", 3, "random sequences TestTwoTabsFollowOneSession plays")
	tabsOps  = flag.Int("tabs.ops", 40, "API calls in each sequence of TestTwoTabsFollowOneSession")
	tabsSeed = flag.Uint64("tabs.seed", 0, "seed of TestTwoTabsFollowOneSession's first sequence (0: a new one)")
)

// tabsScenarios are the scenarios the random tabs start (short ones: a
// start with a step replays the steps).
var tabsScenarios = []string{"life-of-a-record", "kip101-part3", "acks1-loses-acked-writes", "eager-vs-cooperative"}

// tabsLines are the lines the random tabs type, now or from the past:
// some fail (a broker or producer that does not exist, a usage error, an
// unclosed quote), some act, some only look.
var tabsLines = []string{
	"stop 99", "stop", "produce nobody x", `produce checkout "x`, "kill 2", "start 2", "stop 3", "start 3",
	`produce checkout "hello world" --key alice`, "run 1500", "kafka-topics --list", "events 3", "heal", "cut 1 2,3",
}

// apiTab is a page of the browser: the last update it got.
type apiTab struct {
	name string
	seen *Update
}

// TestTwoTabsFollowOneSession plays random sequences of the page's API
// calls from two tabs (start a scenario, play a step with an answer,
// leave, reset, type a line now or from a moment of the past, look at a
// moment of the timeline, let the clock run) and checks after each: no
// request gets a 5xx; every view a tab gets carries the server's session;
// a step asked for with a session or step the server no longer has is a
// 409 carrying the server's session, one asked for with the server's
// session plays exactly one step; and the world's clock never goes back
// without a jump (a fork that succeeded, a reset, a scenario started or
// left). Replay a failure with the line it prints.
func TestTwoTabsFollowOneSession(t *testing.T) {
	seed := *tabsSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	for i := 0; i < *tabsN; i++ {
		s := seed + uint64(i)
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("replay: go test ./web -run TestTwoTabsFollowOneSession -tabs.n=1 -tabs.ops=%d -tabs.seed=%d", *tabsOps, s)
				}
			}()
			playTabs(t, rand.New(rand.NewPCG(s, 2)), *tabsOps)
		})
	}
}

func playTabs(t *testing.T, rnd *rand.Rand, ops int) {
	live, err := NewLive()
	require.NoError(t, err)
	hs := httptest.NewServer(NewServer(live, NewTerminal(live), nil))
	defer hs.Close()
	call := func(what, method, path string, body any) (int, string) {
		var r io.Reader
		if body != nil {
			b, err := json.Marshal(body)
			require.NoError(t, err)
			r = strings.NewReader(string(b))
		}
		req, err := http.NewRequest(method, hs.URL+path, r)
		require.NoError(t, err)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		if resp.StatusCode >= 500 {
			t.Fatalf("%s: %s %s answered %d: %s", what, method, path, resp.StatusCode, b)
		}
		return resp.StatusCode, string(b)
	}
	tabs := []*apiTab{{name: "tab A"}, {name: "tab B"}}
	refresh := func(tb *apiTab, what string) {
		_, body := call(what, "GET", "/api/view", nil)
		u := decode[Update](t, body)
		if diff := cmp.Diff(live.Session(), u.Session); diff != "" {
			t.Fatalf("%s: %s's view carries another session than the server's (-server +view):\n%s", what, tb.name, diff)
		}
		tb.seen = &u
	}
	for _, tb := range tabs {
		refresh(tb, "opening")
	}
	lastNow, lastID := tabs[0].seen.NowMs, tabs[0].seen.Session.ID
	// typedSince[id]: a terminal line was typed in session id, which may
	// leave its world unfit for the scenario's next step
	typedSince := map[uint64]bool{}
	for op := 0; op < ops; op++ {
		tb := tabs[rnd.IntN(2)]
		jump := false
		var what string
		switch k := rnd.IntN(100); {
		case k < 15:
			name := tabsScenarios[rnd.IntN(len(tabsScenarios))]
			steps := rnd.IntN(4)
			what = fmt.Sprintf("%s starts %s at step %d", tb.name, name, steps)
			code, body := call(what, "POST", "/api/scenario/start", startRequest{Name: name, Step: steps})
			require.Equal(t, http.StatusOK, code, "%s: %s", what, body)
			jump = true
		case k < 45:
			seen := tb.seen.Session
			answer := 0
			if seen.Play != nil && seen.Play.Next != nil && len(seen.Play.Next.Choices) > 0 {
				answer = rnd.IntN(len(seen.Play.Next.Choices) + 1)
			}
			what = fmt.Sprintf("%s plays step %d of session %d (%s) answering %d", tb.name, seen.Step, seen.ID, seen.Scenario, answer)
			before := live.Session()
			code, body := call(what, "POST", "/api/scenario/step", StepRequest{Session: seen.ID, Step: &seen.Step, Answer: answer})
			fresh := before.ID == seen.ID && before.Step == seen.Step && before.Scenario != ""
			if !fresh {
				if code != http.StatusConflict {
					t.Fatalf("%s: the server's session is %d at step %d, yet the step answered %d: %s", what, before.ID, before.Step, code, body)
				}
				if diff := cmp.Diff(live.Session(), decode[sessionError](t, body).Session); diff != "" {
					t.Fatalf("%s: the 409 carries another session than the server's (-server +409):\n%s", what, diff)
				}
				if diff := cmp.Diff(before, live.Session()); diff != "" {
					t.Fatalf("%s: a refused step changed the session (-before +after):\n%s", what, diff)
				}
				break
			}
			if code == http.StatusConflict && typedSince[before.ID] {
				// a terminal line changed the scenario's world so that the
				// step no longer fits it: refused, told, nothing moved
				e := decode[sessionError](t, body)
				if n := e.Session.Play.Next; n == nil || n.Refused == "" {
					t.Fatalf("%s: 409 without a refused step: %s", what, body)
				}
				if diff := cmp.Diff(before.Answers, e.Session.Answers); diff != "" || e.Session.Step != before.Step {
					t.Fatalf("%s: a refused step moved the session (-before +after):\n%s", what, diff)
				}
				break
			}
			require.Equal(t, http.StatusOK, code, "%s: %s", what, body)
			after := decode[Session](t, body)
			want := before.Step + 1
			if before.Play.Done {
				want = before.Step
			}
			if after.Step != want || after.ID != before.ID {
				t.Fatalf("%s: the session went from step %d to %d (id %d to %d)", what, before.Step, after.Step, before.ID, after.ID)
			}
			if want > before.Step && after.Answers[len(after.Answers)-1] != answer {
				t.Fatalf("%s: the answer kept is %v", what, after.Answers)
			}
		case k < 52:
			what = tb.name + " leaves the scenario"
			code, body := call(what, "POST", "/api/scenario/leave", struct{}{})
			require.Equal(t, http.StatusOK, code, "%s: %s", what, body)
			jump = true
		case k < 57:
			what = tb.name + " resets"
			code, body := call(what, "POST", "/api/reset", struct{}{})
			require.Equal(t, http.StatusNoContent, code, "%s: %s", what, body)
			jump = true
		case k < 80:
			line := tabsLines[rnd.IntN(len(tabsLines))]
			req := ExecRequest{Line: line}
			now := tb.seen.NowMs
			if start := tb.seen.StartMs; now > start && rnd.IntN(2) == 0 {
				at := start + rnd.Int64N(now-start)
				req.At = &at
			}
			what = fmt.Sprintf("%s types %q", tb.name, line)
			if req.At != nil {
				what += fmt.Sprintf(" at t=%d", *req.At)
			}
			typedSince[live.Session().ID] = true
			code, body := call(what, "POST", "/api/exec", req)
			require.Equal(t, http.StatusOK, code, "%s: %s", what, body)
			r := decode[ExecResult](t, body)
			if r.Forked != nil {
				if req.At == nil || !r.OK || r.Forked.AtMs != *req.At {
					t.Fatalf("%s: forked %+v (ok %v)", what, r.Forked, r.OK)
				}
				jump = true
			}
		case k < 90:
			now := tb.seen.NowMs
			at := rnd.Int64N(now + 1)
			what = fmt.Sprintf("%s looks at t=%d", tb.name, at)
			code, body := call(what, "GET", fmt.Sprintf("/api/view?at=%d", at), nil)
			if code != http.StatusOK && code != http.StatusBadRequest {
				t.Fatalf("%s: status %d: %s", what, code, body)
			}
		default:
			ms := int64(100 * (1 + rnd.IntN(20)))
			what = fmt.Sprintf("the clock runs %d ms", ms)
			require.NoError(t, live.Advance(ms))
		}
		if testing.Verbose() {
			t.Logf("%s", what)
		}
		// each tab gets its next view, or not yet (it may then ask
		// with an old session)
		for _, x := range tabs {
			if x == tb || rnd.IntN(3) > 0 {
				refresh(x, what)
			}
		}
		s := live.Session()
		u, err := live.Update(Focus{Topic: "orders"}, nil)
		require.NoError(t, err)
		if s.ID != lastID {
			jump = true
		}
		if u.NowMs < lastNow && !jump {
			t.Fatalf("%s: the clock went back from %d to %d without a jump", what, lastNow, u.NowMs)
		}
		lastNow, lastID = u.NowMs, s.ID
	}
}
