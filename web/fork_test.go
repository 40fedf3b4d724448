package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestAFailingCommandFromThePastKeepsTheFuture types commands while the
// page shows t=1 s of a world at t=5 s: the ones that fail (a broker that
// does not exist, a usage error, a producer that does not exist) leave
// the world and its future as they were; the one that succeeds forks
// and says what it discarded.
func TestAFailingCommandFromThePastKeepsTheFuture(t *testing.T) {
	hs, live := newTestServer(t)
	require.NoError(t, live.Advance(5000))
	before := getUpdate(t, hs.URL, "")
	for _, line := range []string{"stop 99", "stop", "produce nobody x", `produce checkout "x`, "run 0"} {
		code, body := post(t, hs, "/api/exec", map[string]any{"line": line, "at": 1000})
		require.Equal(t, http.StatusOK, code, body)
		r := decode[ExecResult](t, body)
		if r.OK || r.Forked != nil || strings.Contains(r.Output, "discarded") {
			t.Errorf("%s from t=1000 (failing): ok %v, forked %+v, printed %q", line, r.OK, r.Forked, r.Output)
		}
		if diff := cmp.Diff(before, getUpdate(t, hs.URL, "")); diff != "" {
			t.Fatalf("%s from t=1000 failed and changed the world (-before +after):\n%s", line, diff)
		}
	}

	code, body := post(t, hs, "/api/exec", map[string]any{"line": "stop 3", "at": 1000})
	require.Equal(t, http.StatusOK, code, body)
	r := decode[ExecResult](t, body)
	if diff := cmp.Diff(&Fork{AtMs: 1000, DiscardedMs: 4000}, r.Forked); diff != "" || !r.OK {
		t.Errorf("stop 3 from t=1000: ok %v, fork (-want +got):\n%s", r.OK, diff)
	}
	if want := "(acting at t=1 s discarded the 4 s after it: a new future starts there)\n"; !strings.HasSuffix(r.Output, want) {
		t.Errorf("stop 3 from t=1000 printed %q, want it to end with %q", r.Output, want)
	}
	after := getUpdate(t, hs.URL, "")
	if after.TimeMs != 1000 || after.Brokers[2].State != "stopped" {
		t.Errorf("after the fork the world is at t=%d with broker 3 %s", after.TimeMs, after.Brokers[2].State)
	}

	// a run from the past forks too, and counts what it discarded
	require.NoError(t, live.Advance(2500))
	code, body = post(t, hs, "/api/exec", map[string]any{"line": "run 1500", "at": 2000})
	require.Equal(t, http.StatusOK, code, body)
	r = decode[ExecResult](t, body)
	if diff := cmp.Diff(&Fork{AtMs: 2000, DiscardedMs: 1500}, r.Forked); diff != "" || !r.OK {
		t.Errorf("run 1500 from t=2000 at t=3500: ok %v, fork (-want +got):\n%s", r.OK, diff)
	}
	if u := getUpdate(t, hs.URL, ""); u.TimeMs != 3500 {
		t.Errorf("after run 1500 from t=2000 the world is at t=%d", u.TimeMs)
	}
	// looking from the past forks nothing
	code, body = post(t, hs, "/api/exec", map[string]any{"line": "kafka-topics --list", "at": 1000})
	require.Equal(t, http.StatusOK, code, body)
	if r := decode[ExecResult](t, body); !r.OK || r.Forked != nil {
		t.Errorf("kafka-topics from the past: ok %v forked %+v", r.OK, r.Forked)
	}
	if u := getUpdate(t, hs.URL, ""); u.TimeMs != 3500 {
		t.Errorf("after kafka-topics from t=1000 the world is at t=%d", u.TimeMs)
	}
}
