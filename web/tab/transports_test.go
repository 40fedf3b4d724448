//go:build !js

package tab

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/notes"
	"github.com/kafkalive/kafkalive/web"
)

// messages is a page's end of a Tab: it posts the page's messages and
// collects the Worker's.
type messages struct {
	t   require.TestingT
	tab *Tab
	out chan Out
	id  int
}

func newMessages(t require.TestingT, live *web.Live) *messages {
	m := &messages{t: t, out: make(chan Out, 1024)}
	m.tab = newTab(live, func(o Out) { m.out <- o })
	return m
}

// call sends a call and waits for its reply (updates of watches are
// dropped meanwhile).
func (m *messages) call(method, path, body string) Out {
	m.id++
	m.tab.Receive(In{Op: "call", ID: m.id, Method: method, Path: path, Body: body})
	for o := range m.out {
		if o.Op == "reply" && o.ID == m.id {
			return o
		}
	}
	panic("unreachable")
}

// reply is what either transport answered to a call.
type reply struct {
	Status int
	Type   string
	Body   string
}

// httpCall sends a call to the server as the page's fetch does.
func httpCall(t require.TestingT, hs *httptest.Server, method, path, body string) reply {
	req, err := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hs.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	ct := resp.Header.Get("Content-Type")
	if len(b) == 0 {
		ct = "" // net/http sniffs no type for an empty body
	}
	return reply{Status: resp.StatusCode, Type: ct, Body: string(b)}
}

// call is one call a page makes, well formed or not.
type call struct{ method, path, body string }

func (c call) String() string { return fmt.Sprintf("%s %s %s", c.method, c.path, c.body) }

// drawCall draws a call of the page: every route, with arguments a page
// sends and arguments it never would (a bad moment, a broken body, a
// field that is not the route's, a scenario or note that is not there).
func drawCall(t *rapid.T) call {
	lines := []string{"kafka-topics --describe", "stop 2", "start 2", "kill 3", "power-cut 1", "run 1500", "run 250",
		"kafka-consumer-groups --list", "events 5", "help", "nonsense", "", "stop 9", `produce order-svc "a b"`, "set-producer order-svc --rate 50", "run x"}
	switch rapid.IntRange(0, 12).Draw(t, "route") {
	case 0:
		q := fmt.Sprintf("topic=%s&partition=%d", rapid.SampledFrom([]string{"orders", "profiles", "nope", ""}).Draw(t, "topic"), rapid.IntRange(-1, 3).Draw(t, "partition"))
		if at := rapid.SampledFrom([]string{"", "0", "700", "2500", "99999999", "-5", "x"}).Draw(t, "at"); at != "" {
			q += "&at=" + at
		}
		return call{"GET", "/api/view?" + q, ""}
	case 1, 2, 3:
		body := fmt.Sprintf(`{"line": %q}`, rapid.SampledFrom(lines).Draw(t, "line"))
		if at := rapid.SampledFrom([]string{"", "0", "1000", "-1"}).Draw(t, "at"); at != "" {
			body = body[:len(body)-1] + `, "at": ` + at + "}"
		}
		return call{"POST", "/api/exec", body}
	case 4:
		return call{"POST", "/api/pause", fmt.Sprintf(`{"paused": %v}`, rapid.Bool().Draw(t, "paused"))}
	case 5:
		return call{"POST", "/api/speed", fmt.Sprintf(`{"speed": %d}`, rapid.IntRange(-1, 25).Draw(t, "speed"))}
	case 6:
		return call{"POST", "/api/reset", "{}"}
	case 7:
		name := rapid.SampledFrom([]string{"life-of-a-record", "kip101-part3", "acks1-loses-acked-writes", "nope"}).Draw(t, "scenario")
		return call{"POST", "/api/scenario/start", fmt.Sprintf(`{"name": %q, "step": %d}`, name, rapid.IntRange(0, 3).Draw(t, "step"))}
	case 8:
		return call{"POST", "/api/scenario/step", fmt.Sprintf(`{"answer": %d}`, rapid.IntRange(0, 3).Draw(t, "answer"))}
	case 9:
		return call{"POST", "/api/scenario/leave", "{}"}
	case 10:
		return call{"GET", rapid.SampledFrom([]string{"/api/scenarios", "/api/notes", "/api/note?name=00-why-a-log", "/api/note?name=../notes/00-why-a-log", "/api/note?name=", "/api/nope"}).Draw(t, "get"), ""}
	default:
		path := rapid.SampledFrom([]string{"/api/exec", "/api/pause", "/api/speed", "/api/scenario/start", "/api/reset"}).Draw(t, "path")
		return call{"POST", path, rapid.SampledFrom([]string{"", "{", `{"x": 1}`, `{"line": 1}`, "{} {}", "[]", "null"}).Draw(t, "bad body")}
	}
}

// TestTabAnswersAsTheServer plays random sequences of the page's calls on
// two fresh default worlds, one behind the server's HTTP and one behind a
// Tab's messages: every answer is the same, status, content type and
// body, so the page cannot tell its transports apart. The clocks do not
// run: time moves only by the calls (run MS), the same in both.
func TestTabAnswersAsTheServer(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		srvLive, err := web.NewLive()
		require.NoError(rt, err)
		hs := httptest.NewServer(web.NewServer(srvLive, web.NewTerminal(srvLive), notes.FS))
		defer hs.Close()
		tabLive, err := web.NewLive()
		require.NoError(rt, err)
		m := newMessages(rt, tabLive)
		n := rapid.IntRange(1, 12).Draw(rt, "calls")
		for i := 0; i < n; i++ {
			c := drawCall(rt)
			want := httpCall(rt, hs, c.method, c.path, c.body)
			o := m.call(c.method, c.path, c.body)
			got := reply{Status: o.Status, Type: o.Type, Body: o.Body}
			if diff := cmp.Diff(want, got); diff != "" {
				rt.Fatalf("call %d, %s: the Tab answered otherwise than the server (-server +tab):\n%s", i+1, c, diff)
			}
		}
	})
}

// The Tab's own answers: 405 for a route asked with another method (the
// server's GET / serves files, so it answers 404 there), 404 outside
// /api, 400 for a message it does not know.
func TestTabRefusesWhatIsNoCall(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	m := newMessages(t, live)
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/exec", 405},
		{"POST", "/api/view", 405},
		{"DELETE", "/api/reset", 405},
		{"GET", "/index.html", 404},
		{"GET", "/api/nope", 404},
		{"GET", "%zz", 404},
	} {
		if o := m.call(c.method, c.path, "{}"); o.Status != c.want {
			t.Errorf("%s %s: status %d, want %d (%s)", c.method, c.path, o.Status, c.want, o.Body)
		}
	}
	m.tab.Receive(In{Op: "shout", ID: 99})
	o := <-m.out
	if o.Op != "reply" || o.ID != 99 || o.Status != 400 || !strings.Contains(o.Body, `unknown message op "shout"`) {
		t.Errorf("an unknown op got %+v, want a 400 reply naming it", o)
	}
}

// A watch sends the update at once, another after a change, and nothing
// after unwatch; two watches of the same page are independent.
func TestTabWatch(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	m := newMessages(t, live)
	m.tab.Receive(In{Op: "watch", ID: 7, Path: "/api/stream?topic=orders&partition=2"})
	first := <-m.out
	var store web.Store
	u := updateOf(t, &store, first)
	if first.Op != "update" || first.ID != 7 || u.Detail == nil || u.Detail.Topic != "orders" || u.Detail.Partition != 2 {
		t.Fatalf("the first message of a watch of orders-2 is %s %d showing %+v", first.Op, first.ID, u.Detail)
	}
	require.NoError(t, live.Advance(500))
	second := <-m.out
	u = updateOf(t, &store, second)
	if second.Op != "update" || u.TimeMs != 500 {
		t.Fatalf("after the clock moved to 500 ms the watch sent %s at t=%d", second.Op, u.TimeMs)
	}
	m.tab.Receive(In{Op: "unwatch", ID: 7})
	require.NoError(t, live.Advance(500))
	o := m.call("GET", "/api/scenarios", "")
	if o.Status != 200 {
		t.Fatalf("GET /api/scenarios: %d", o.Status)
	}
	select {
	case o := <-m.out:
		if o.Op == "update" {
			t.Fatalf("an update came after unwatch: %.80s", o.Body)
		}
	default:
	}
}

// While a long run goes on ("run 3600000" from the terminal, a call of its
// own: the longest run, an hour, since the world now runs ten minutes in a
// fraction of a second and a shorter one could end before the reset), views
// are answered and the watch gets updates of the run's progress: the run
// moves the world a second at a time and lets the rest in between.
func TestTabAnswersDuringALongRun(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	m := newMessages(t, live)
	m.tab.Receive(In{Op: "call", ID: 1, Method: "POST", Path: "/api/exec", Body: `{"line": "run 3600000"}`})
	m.tab.Receive(In{Op: "watch", ID: 2, Path: "/api/stream"})
	var times []int64
	var store web.Store
	for o := range m.out {
		switch {
		case o.Op == "update":
			u := updateOf(t, &store, o)
			times = append(times, u.TimeMs)
			if len(times) == 3 {
				m.tab.Receive(In{Op: "call", ID: 3, Method: "GET", Path: "/api/view"})
			}
		case o.Op == "reply" && o.ID == 3:
			var u web.Update
			require.NoError(t, jsonUnmarshal(o.Body, &u))
			if u.TimeMs <= 0 || u.TimeMs >= 3_600_000 {
				t.Fatalf("a view asked during the run shows t=%d ms, want a moment inside it", u.TimeMs)
			}
			m.tab.Receive(In{Op: "call", ID: 4, Method: "POST", Path: "/api/reset", Body: "{}"})
		case o.Op == "reply" && o.ID == 1:
			if !strings.Contains(o.Body, "run interrupted") {
				t.Fatalf("the run ended without being interrupted by the reset: %.200s", o.Body)
			}
			if len(times) < 3 || times[1] <= times[0] {
				t.Fatalf("the watch sent updates at %v during the run, want the run's progress", times)
			}
			return
		}
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// updateOf applies the frame of the update message o to store and returns
// the update the page then holds.
func updateOf(t *testing.T, store *web.Store, o Out) web.Update {
	t.Helper()
	require.NoError(t, store.Apply([]byte(o.Body)), "message %s %d: %.200s", o.Op, o.ID, o.Body)
	var u web.Update
	require.NoError(t, json.Unmarshal(store.JSON(), &u))
	return u
}

// TestTabAnswersEveryMessage posts random messages, well formed or not
// (ops that do not exist, methods and paths a page never sends, ids
// reused, watches started and stopped at random): the Tab never panics,
// and every message that asks something gets exactly one answer with its
// id, a call a "reply", stats "stats", an unknown op a 400 "reply".
func TestTabAnswersEveryMessage(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	rapid.Check(t, func(rt *rapid.T) {
		m := newMessages(rt, live)
		want := map[int]int{} // answers expected, by id
		n := rapid.IntRange(1, 20).Draw(rt, "messages")
		for i := 0; i < n; i++ {
			in := In{
				Op:     rapid.SampledFrom([]string{"call", "call", "call", "watch", "unwatch", "stats", "", "CALL", "nope"}).Draw(rt, "op"),
				ID:     rapid.IntRange(-2, 6).Draw(rt, "id"),
				Method: rapid.SampledFrom([]string{"GET", "POST", "PUT", "", "get"}).Draw(rt, "method"),
				Path: rapid.SampledFrom([]string{"/api/view", "/api/view?at=x", "/api/stream?topic=orders&partition=9", "/api/exec", "/api/scenarios",
					"/api/note?name=%2e%2e", "/", "", "%", "http://elsewhere.example/api/view", "/api/../api/view", "/api/reset"}).Draw(rt, "path"),
				Body: rapid.SampledFrom([]string{"", "{}", `{"line": "events 3"}`, `{"line": "run 300"}`, "{", "\x00"}).Draw(rt, "body"),
			}
			switch in.Op {
			case "watch", "unwatch":
			default:
				want[in.ID]++
			}
			m.tab.Receive(in)
		}
		got := map[int]int{}
		timeout := time.After(30 * time.Second)
		for !maps.Equal(want, got) {
			select {
			case o := <-m.out:
				switch o.Op {
				case "update", "end":
					continue
				case "reply", "stats":
					got[o.ID]++
				default:
					rt.Fatalf("the Tab posted %q: %+v", o.Op, o)
				}
				if got[o.ID] > want[o.ID] {
					rt.Fatalf("id %d got %d answers, want %d: %+v", o.ID, got[o.ID], want[o.ID], o)
				}
			case <-timeout:
				rt.Fatalf("after 30 s the answers by id are %v, want %v", got, want)
			}
		}
		for id := -2; id <= 6; id++ {
			m.tab.Receive(In{Op: "unwatch", ID: id})
		}
	})
}
