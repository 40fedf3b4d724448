package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/scenarios"
)

func newTestServer(t *testing.T) (*httptest.Server, *Live) {
	t.Helper()
	live, err := NewLive()
	require.NoError(t, err)
	notes := fstest.MapFS{
		"00-why-a-log.md":       {Data: []byte("# Why a log\n\nAppend **only**.\n")},
		"CONTRIBUTING-kit.md":   {Data: []byte("# not a chapter\n")},
		"01-records-on-disk.md": {Data: []byte("text without a heading\n")},
	}
	hs := httptest.NewServer(NewServer(live, NewTerminal(live), notes))
	t.Cleanup(hs.Close)
	return hs, live
}

func get(t *testing.T, hs *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(hs.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// post sends body as the page does: a JSON POST (nil: {}).
func post(t *testing.T, hs *httptest.Server, path string, body map[string]any) (int, string) {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	req, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(hs.URL+path, "application/json", bytes.NewReader(req))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func TestServerServesTheEmbeddedPage(t *testing.T) {
	hs, _ := newTestServer(t)
	for path, want := range map[string]string{
		"/":                     `<script type="module" src="js/main.js">`,
		"/js/main.js":           "httpTransport",
		"/js/transport.js":      "new EventSource",
		"/js/render/brokers.js": "brokersHTML",
		"/style.css":            ".rec.cached",
	} {
		code, body := get(t, hs, path)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET %s: status %d, body without %q", path, code, want)
		}
	}
	// a browser runs a module only when it is served as JavaScript
	resp, err := http.Get(hs.URL + "/js/main.js")
	require.NoError(t, err)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("GET /js/main.js: Content-Type %q, want text/javascript", ct)
	}
	if code, _ := get(t, hs, "/nope.js"); code != http.StatusNotFound {
		t.Errorf("GET /nope.js: status %d, want 404", code)
	}
}

func TestServerViewAndExec(t *testing.T) {
	hs, live := newTestServer(t)
	require.NoError(t, live.Advance(3000))
	code, out := post(t, hs, "/api/exec", map[string]any{"line": "kill 2"})
	require.Equal(t, http.StatusOK, code)
	var res ExecResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	if !res.OK || !strings.Contains(res.Output, "kill 2") {
		t.Fatalf("kill 2 printed %+v", res)
	}
	require.NoError(t, live.Advance(1000))

	code, body := get(t, hs, "/api/view?topic=orders&partition=1")
	require.Equal(t, http.StatusOK, code, body)
	var v View
	require.NoError(t, json.Unmarshal([]byte(body), &v))
	states := map[int32]string{}
	for _, b := range v.Brokers {
		states[b.ID] = b.State
	}
	if diff := cmp.Diff(map[int32]string{1: "running", 2: "crashed", 3: "running"}, states); diff != "" {
		t.Errorf("broker states after kill 2 (-want +got):\n%s", diff)
	}
	if v.Detail == nil || v.Detail.Topic != "orders" || v.Detail.Partition != 1 || v.Past {
		t.Fatalf("the view shows %+v in detail, want orders-1 now", v.Detail)
	}

	// The past: before the kill broker 2 ran.
	code, body = get(t, hs, "/api/view?at=2000")
	require.Equal(t, http.StatusOK, code, body)
	var past View
	require.NoError(t, json.Unmarshal([]byte(body), &past))
	if !past.Past || past.TimeMs != 2000 || past.NowMs != 4000 || past.Brokers[1].State != "running" {
		t.Fatalf("the view at 2000 ms is t=%d now=%d past=%v broker 2 %s; want t=2000 now=4000, broker 2 running",
			past.TimeMs, past.NowMs, past.Past, past.Brokers[1].State)
	}

	for _, bad := range []string{"/api/view?at=-1", "/api/view?at=x"} {
		if code, _ := get(t, hs, bad); code != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400", bad, code)
		}
	}
}

func TestServerActingFromThePastForks(t *testing.T) {
	hs, live := newTestServer(t)
	require.NoError(t, live.Advance(5000))
	code, out := post(t, hs, "/api/exec", map[string]any{"line": "stop 3", "at": 1000})
	require.Equal(t, http.StatusOK, code, out)
	v, err := live.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	if v.TimeMs != 1000 || v.Brokers[2].State != "stopped" {
		t.Fatalf("after stop 3 from t=1000 the live world is at t=%d with broker 3 %s; want a new future from t=1000 with broker 3 stopped",
			v.TimeMs, v.Brokers[2].State)
	}
}

func TestServerScenarios(t *testing.T) {
	hs, _ := newTestServer(t)
	code, body := post(t, hs, "/api/scenario/step", nil)
	if code != http.StatusConflict {
		t.Errorf("a step with no scenario: status %d, want 409 (%s)", code, body)
	}
	code, body = get(t, hs, "/api/scenarios")
	require.Equal(t, http.StatusOK, code)
	var list []ScenarioInfo
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.NotEmpty(t, list)
	code, _ = post(t, hs, "/api/scenario/start", map[string]any{"name": "no-such"})
	require.Equal(t, http.StatusNotFound, code)

	code, body = post(t, hs, "/api/scenario/start", map[string]any{"name": list[0].Name})
	require.Equal(t, http.StatusOK, code, body)
	var s Session
	require.NoError(t, json.Unmarshal([]byte(body), &s))
	for i := 0; !s.Play.Done; i++ {
		if i > 200 {
			t.Fatalf("scenario %s did not end in 200 steps", list[0].Name)
		}
		code, body = post(t, hs, "/api/scenario/step", nil)
		require.Equal(t, http.StatusOK, code, body)
		s = Session{}
		require.NoError(t, json.Unmarshal([]byte(body), &s))
		if p := s.Play.Played; p != nil && len(p.Failed) > 0 {
			t.Logf("step %s: the simulation differs from the reference: %v", p.ID, p.Failed)
		}
	}
	code, body = get(t, hs, "/api/view")
	require.Equal(t, http.StatusOK, code)
	if !strings.Contains(body, `"mode":"scenario"`) {
		t.Errorf("the view during a scenario does not say so: %.200s", body)
	}
	post(t, hs, "/api/scenario/leave", nil)
	if _, body = get(t, hs, "/api/view"); !strings.Contains(body, `"mode":"live"`) {
		t.Errorf("the view after leaving a scenario is not live: %.200s", body)
	}
}

func TestServerNotes(t *testing.T) {
	hs, _ := newTestServer(t)
	_, body := get(t, hs, "/api/notes")
	var list []NoteInfo
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	want := []NoteInfo{
		{Name: "00-why-a-log", Title: noteCards["00-why-a-log"].title, Summary: noteCards["00-why-a-log"].summary, Scenario: "life-of-a-record"},
		{Name: "01-records-on-disk", Title: noteCards["01-records-on-disk"].title, Summary: noteCards["01-records-on-disk"].summary},
	}
	if diff := cmp.Diff(want, list); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	code, body := get(t, hs, "/api/note?name=00-why-a-log")
	if code != http.StatusOK || !strings.Contains(body, "<strong>only</strong>") {
		t.Errorf("note: status %d body %q", code, body)
	}
	for _, bad := range []string{"../go.mod", "nope", ""} {
		if code, _ := get(t, hs, "/api/note?name="+url.QueryEscape(bad)); code != http.StatusNotFound {
			t.Errorf("note %q: status %d, want 404", bad, code)
		}
	}
}

func TestEveryNoteLinksAScenarioThatExists(t *testing.T) {
	for note, name := range noteScenarios {
		if _, err := scenarios.Get(name); err != nil {
			t.Errorf("note %s links scenario %q: %v", note, name, err)
		}
	}
}

func TestServerSpeed(t *testing.T) {
	hs, live := newTestServer(t)
	for _, bad := range []any{0, 21, "x"} {
		if code, _ := post(t, hs, "/api/speed", map[string]any{"speed": bad}); code != http.StatusBadRequest {
			t.Errorf("speed %v: status %d, want 400", bad, code)
		}
	}
	code, _ := post(t, hs, "/api/speed", map[string]any{"speed": 5})
	require.Equal(t, http.StatusNoContent, code)
	require.NoError(t, live.Advance(100))
	v, err := live.View(Focus{}, nil)
	require.NoError(t, err)
	if v.TimeMs != 500 || v.Speed != 5 {
		t.Fatalf("at speed 5, 100 ms of wall clock moved the world to t=%d (speed %d); want 500", v.TimeMs, v.Speed)
	}
}
