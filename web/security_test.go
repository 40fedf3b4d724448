package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// route is one of the server's routes with a request it takes.
type route struct {
	method, path string
	// body is the JSON body of a state-changing route ("" for a GET).
	body string
}

// routes are every route the server has, static files and the stream
// included.
var routes = []route{
	{"GET", "/", ""},
	{"GET", "/js/main.js", ""},
	{"GET", "/style.css", ""},
	{"GET", "/api/view?topic=orders&partition=0", ""},
	{"GET", "/api/stream?topic=orders&partition=0", ""},
	{"GET", "/api/scenarios", ""},
	{"GET", "/api/notes", ""},
	{"GET", "/api/note?name=00-why-a-log", ""},
	{"POST", "/api/exec", `{"line": "stop 2"}`},
	{"POST", "/api/pause", `{"paused": true}`},
	{"POST", "/api/reset", `{}`},
	{"POST", "/api/speed", `{"speed": 5}`},
	{"POST", "/api/scenario/start", `{"name": "life-of-a-record"}`},
	{"POST", "/api/scenario/step", `{}`},
	{"POST", "/api/scenario/leave", `{}`},
}

// request is one request of the table: a route asked with a method, from
// an origin, by a Host, with a content type.
type request struct {
	route
	method      string
	origin      string // "" for none
	fetchSite   string // Sec-Fetch-Site, "" for none
	host        string
	contentType string // "" for none
	query       bool   // the arguments in the query string, as a foreign form would send them
}

func (q request) String() string {
	return fmt.Sprintf("%s %s (route %s) Origin=%q Sec-Fetch-Site=%q Host=%q Content-Type=%q query=%v",
		q.method, q.path, q.route.method, q.origin, q.fetchSite, q.host, q.contentType, q.query)
}

// wantStatus is the rule the server keeps, restated: a foreign Host gets
// 421; another site (by Origin or Sec-Fetch-Site) 403; a request that is
// not a GET must carry JSON (415) and no query string (400); then the
// routes answer (405 for the wrong method, 404 for a GET of a POST route).
func wantStatus(q request, ownHosts map[string]bool) int {
	switch {
	case !ownHosts[q.host]:
		return http.StatusMisdirectedRequest
	case q.origin != "" && q.origin != "http://"+q.host:
		return http.StatusForbidden
	case q.fetchSite == "same-site" || q.fetchSite == "cross-site":
		return http.StatusForbidden
	}
	if q.method != "GET" {
		if !strings.HasPrefix(q.contentType, "application/json") {
			return http.StatusUnsupportedMediaType
		}
		if q.query || strings.Contains(q.path, "?") {
			return http.StatusBadRequest
		}
	}
	switch {
	case q.method == "GET" && q.route.method == "POST":
		return http.StatusNotFound // GET / serves the static files: there is no such file
	case q.method != q.route.method:
		return http.StatusMethodNotAllowed
	}
	return 0 // the route's own answer: a success
}

// send makes q against hs and returns the status.
func send(t *testing.T, hs *httptest.Server, q request) int {
	t.Helper()
	path, body := q.path, q.body
	if q.method == "GET" {
		body = ""
	}
	if q.query {
		// the arguments as a foreign page's form or fetch sends them
		vals := url.Values{}
		var m map[string]any
		if q.body != "" {
			require.NoError(t, json.Unmarshal([]byte(q.body), &m))
		}
		for k, v := range m {
			vals.Set(k, fmt.Sprint(v))
		}
		if len(vals) == 0 {
			vals.Set("x", "1")
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + vals.Encode()
		body = vals.Encode()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, q.method, hs.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Host = q.host
	if q.origin != "" {
		req.Header.Set("Origin", q.origin)
	}
	if q.fetchSite != "" {
		req.Header.Set("Sec-Fetch-Site", q.fetchSite)
	}
	if q.contentType != "" {
		req.Header.Set("Content-Type", q.contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "%s", q)
	defer resp.Body.Close()
	if strings.HasPrefix(q.path, "/api/stream") {
		return resp.StatusCode // the stream goes on: its status is all we read
	}
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestOnlyThePageDrivesTheCluster asks every route with every method, from
// no origin, its own, another site and another port of the same host, by
// the server's own Host names and foreign ones, with every content type a
// page can send: each gets the status the rules give, and a refused
// request changes nothing (the Live's version stays).
func TestOnlyThePageDrivesTheCluster(t *testing.T) {
	hs, live := newTestServer(t)
	own := strings.TrimPrefix(hs.URL, "http://")
	_, port, _ := strings.Cut(own, ":")
	ownHosts := map[string]bool{own: true, "localhost:" + port: true, "[::1]:" + port: true}
	hosts := []string{own, "localhost:" + port, "[::1]:" + port, "evil.example:" + port, "127.0.0.1:1"}
	fetchSites := []string{"", "same-origin", "none", "same-site", "cross-site"}
	contentTypes := []string{"application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""}
	n, refused := 0, 0
	for _, rt := range routes {
		for _, method := range []string{"GET", "POST"} {
			for _, host := range hosts {
				cts := contentTypes
				switch {
				case method == "GET":
					cts = []string{""}
				case !ownHosts[host]:
					cts = cts[:3] // refused by the Host before anything else is read
				}
				for _, origin := range []string{"", "http://" + host, "http://evil.example", "http://127.0.0.1:1", "null"} {
					for _, site := range fetchSites {
						for _, ct := range cts {
							for _, query := range []bool{false, true} {
								if query && method == "GET" {
									continue
								}
								q := request{route: rt, method: method, origin: origin, fetchSite: site, host: host, contentType: ct, query: query}
								want := wantStatus(q, ownHosts)
								before := live.Version()
								got := send(t, hs, q)
								n++
								switch {
								case want == 0 && (got < 200 || got > 299):
									t.Errorf("%s: status %d, want a success", q, got)
								case want != 0 && got != want:
									t.Errorf("%s: status %d, want %d", q, got, want)
								}
								if want != 0 {
									refused++
									if v := live.Version(); v != before {
										t.Errorf("%s was refused with %d but changed the world (version %d -> %d)", q, got, before, v)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d requests, %d refused", n, refused)
}

// TestAForeignPageCannotStopABroker replays what a foreign page did: a
// text/plain POST with the line in the query string, reset and pause the
// same way, and a view read through a rebound DNS name. Broker 2 keeps
// running and nothing is read.
func TestAForeignPageCannotStopABroker(t *testing.T) {
	hs, live := newTestServer(t)
	own := strings.TrimPrefix(hs.URL, "http://")
	_, port, _ := strings.Cut(own, ":")
	for _, path := range []string{"/api/exec?line=stop+2", "/api/reset", "/api/pause?paused=true"} {
		req, err := http.NewRequest("POST", hs.URL+path, strings.NewReader("line=stop 2"))
		require.NoError(t, err)
		req.Header.Set("Origin", "http://evil.example")
		req.Header.Set("Content-Type", "text/plain")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s from http://evil.example: status %d, want 403", path, resp.StatusCode)
		}
		// Without an Origin (an old browser, a script): still not JSON.
		req, err = http.NewRequest("POST", hs.URL+path, strings.NewReader("line=stop 2"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/plain")
		resp, err = http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Errorf("POST %s as text/plain: status %d, want 415", path, resp.StatusCode)
		}
	}
	req, err := http.NewRequest("GET", hs.URL+"/api/view", nil)
	require.NoError(t, err)
	req.Host = "evil.example:" + port
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest || bytes.Contains(b, []byte(`"brokers"`)) {
		t.Errorf("GET /api/view with Host evil.example:%s: status %d, body %.100q; want 421 and no view", port, resp.StatusCode, b)
	}
	v, err := live.View(Focus{}, nil)
	require.NoError(t, err)
	states := map[int32]string{}
	for _, b := range v.Brokers {
		states[b.ID] = b.State
	}
	if diff := cmp.Diff(map[int32]string{1: "running", 2: "running", 3: "running"}, states); diff != "" || v.Paused {
		t.Errorf("after the foreign requests (paused %v) broker states (-want +got):\n%s", v.Paused, diff)
	}
}

// TestServeHostsAddsNames: a name given in Server.Hosts (serve's --addr)
// is the server's own; other names are not.
func TestServeHostsAddsNames(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	srv := NewServer(live, NewTerminal(live), nil)
	srv.Hosts = []string{"kafkalive.lan:7070"}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	for host, want := range map[string]int{"kafkalive.lan:7070": 200, "KafkaLive.LAN:7070": 200, "kafkalive.lan:7071": 421, "other.lan:7070": 421} {
		req, err := http.NewRequest("GET", hs.URL+"/api/view", nil)
		require.NoError(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET /api/view with Host %s: status %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestBadJSONBodies: a state-changing route takes one JSON object of its
// own fields.
func TestBadJSONBodies(t *testing.T) {
	hs, live := newTestServer(t)
	for _, c := range []struct{ path, body string }{
		{"/api/exec", ``},
		{"/api/exec", `line=stop 2`},
		{"/api/exec", `{"line": "stop 2", "extra": 1}`},
		{"/api/exec", `{"line": "stop 2"} {"line": "stop 3"}`},
		{"/api/exec", `{"line": "stop 2", "at": -1}`},
		{"/api/speed", `{"speed": "5"}`},
		{"/api/pause", `{"paused": "yes"}`},
		{"/api/reset", `[]`},
	} {
		before := live.Version()
		resp, err := http.Post(hs.URL+c.path, "application/json", strings.NewReader(c.body))
		require.NoError(t, err)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("POST %s %s: status %d, want 400", c.path, c.body, resp.StatusCode)
		}
		if live.Version() != before {
			t.Errorf("POST %s %s was refused but changed the world", c.path, c.body)
		}
	}
	big := `{"line": "produce checkout ` + strings.Repeat("x", MaxBodyBytes) + `"}`
	resp, err := http.Post(hs.URL+"/api/exec", "application/json", strings.NewReader(big))
	require.NoError(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("POST /api/exec with a %d-byte body: status %d, want 413", len(big), resp.StatusCode)
	}
}
