package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/scenarios"
)

// getUpdate GETs /api/view (path: its query) as a tab does.
func getUpdate(t *testing.T, url, query string) Update {
	t.Helper()
	resp, err := http.Get(url + "/api/view" + query)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var u Update
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&u))
	return u
}

// decode decodes a JSON answer into a T.
func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(body), &v), body)
	return v
}

// TestAReloadShowsTheSameScenario plays two steps of kip101-part3 with
// answers: a second tab (a reload) gets the same session from /api/view,
// and a server started afresh from the page's URL
// (?scenario=kip101-part3&step=2&answers=2,3) shows the same step, answers
// and world.
func TestAReloadShowsTheSameScenario(t *testing.T) {
	hs, _ := newTestServer(t)
	code, body := post(t, hs, "/api/scenario/start", map[string]any{"name": "kip101-part3"})
	require.Equal(t, http.StatusOK, code, body)
	s := decode[Session](t, body)
	if s.Scenario != "kip101-part3" || s.Step != 0 || s.Play == nil || len(s.Play.Intro) == 0 || s.Play.Next == nil {
		t.Fatalf("the session after starting: %+v", s)
	}
	for i, a := range []int{0, 2} {
		code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": s.ID, "step": i, "answer": a})
		require.Equal(t, http.StatusOK, code, body)
		s = decode[Session](t, body)
	}
	if diff := cmp.Diff([]int{0, 2}, s.Answers); diff != "" || s.Step != 2 {
		t.Fatalf("after two steps the session is at step %d; answers (-want +got):\n%s", s.Step, diff)
	}
	if p := s.Play.Played; p == nil || p.ID != "1" || p.Chosen != 2 || p.Answer != 2 || p.Why == "" || len(p.Actions) == 0 {
		t.Fatalf("the step played last: %+v", p)
	}
	tab2 := getUpdate(t, hs.URL, "?topic=kip101")
	if diff := cmp.Diff(s, tab2.Session); diff != "" {
		t.Errorf("a second tab's session (-first tab +second tab):\n%s", diff)
	}
	if tab2.Mode != "scenario" {
		t.Errorf("a second tab's view is in mode %q", tab2.Mode)
	}

	// the server restarted: the URL's scenario, step and answers
	hs2, _ := newTestServer(t)
	code, body = post(t, hs2, "/api/scenario/start", map[string]any{"name": "kip101-part3", "step": 2, "answers": []int{0, 2}})
	require.Equal(t, http.StatusOK, code, body)
	again := decode[Session](t, body)
	again.ID = s.ID
	if diff := cmp.Diff(s, again); diff != "" {
		t.Errorf("the session rebuilt from the URL (-played +rebuilt):\n%s", diff)
	}
	u2 := getUpdate(t, hs2.URL, "?topic=kip101")
	u2.Session.ID = s.ID
	if diff := cmp.Diff(tab2, u2); diff != "" {
		t.Errorf("the update rebuilt from the URL (-played +rebuilt):\n%s", diff)
	}

	// a step beyond the end stops at the end; bad answers are refused
	code, body = post(t, hs2, "/api/scenario/start", map[string]any{"name": "kip101-part3", "step": 1000})
	require.Equal(t, http.StatusOK, code, body)
	if end := decode[Session](t, body); !end.Play.Done || end.Step != len(mustScenario(t, "kip101-part3").Steps) {
		t.Errorf("starting at step 1000: step %d, done %v", end.Step, end.Play.Done)
	}
	for _, bad := range []map[string]any{
		{"name": "kip101-part3", "step": 1, "answers": []int{1, 2}},
		{"name": "kip101-part3", "step": -1},
	} {
		if code, body := post(t, hs2, "/api/scenario/start", bad); code != http.StatusBadRequest {
			t.Errorf("start %v: status %d, want 400 (%s)", bad, code, body)
		}
	}
}

func mustScenario(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Get(name)
	require.NoError(t, err)
	return sc
}

// TestAStaleTabIsToldAndFollows: tab A plays a scenario, tab B resets the
// world; A's next step is refused with 409, a message that says what
// happened and the server's session (live), and nothing is played. Two
// tabs at the same step: the second one's step is refused, so no step is
// played twice.
func TestAStaleTabIsToldAndFollows(t *testing.T) {
	hs, live := newTestServer(t)
	code, body := post(t, hs, "/api/scenario/start", map[string]any{"name": "life-of-a-record"})
	require.Equal(t, http.StatusOK, code, body)
	a := decode[Session](t, body)

	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": a.ID, "step": 0})
	require.Equal(t, http.StatusOK, code, body)
	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": a.ID, "step": 0})
	if code != http.StatusConflict {
		t.Fatalf("a second tab's step 0 after the first played it: status %d, want 409 (%s)", code, body)
	}
	e := decode[sessionError](t, body)
	if !strings.Contains(e.Error, "at step 1, not 0") || e.Session.Step != 1 || e.Session.Scenario != "life-of-a-record" {
		t.Errorf("the refusal says %q with session at step %d", e.Error, e.Session.Step)
	}

	code, body = post(t, hs, "/api/reset", nil)
	require.Equal(t, http.StatusNoContent, code, body)
	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": a.ID, "step": 1})
	if code != http.StatusConflict {
		t.Fatalf("a step of the scenario another tab reset: status %d, want 409 (%s)", code, body)
	}
	e = decode[sessionError](t, body)
	if !strings.Contains(e.Error, "no longer played") || e.Session.Scenario != "" || e.Session.ID == a.ID {
		t.Errorf("after a reset in another tab the refusal says %q with session %+v", e.Error, e.Session)
	}
	if s := live.Session(); s.Scenario != "" || s.Step != 0 {
		t.Errorf("a refused step changed the session: %+v", s)
	}

	// starting again makes a new session: the old one's steps are refused
	_, body = post(t, hs, "/api/scenario/start", map[string]any{"name": "life-of-a-record"})
	b := decode[Session](t, body)
	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": a.ID, "step": 0})
	if code != http.StatusConflict || !strings.Contains(body, "started life-of-a-record again") {
		t.Errorf("a step of an old session of the same scenario: status %d (%s)", code, body)
	}
	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": b.ID, "step": 0, "answer": 99})
	if code != http.StatusBadRequest {
		t.Errorf("answer 99: status %d, want 400 (%s)", code, body)
	}
	code, body = post(t, hs, "/api/scenario/leave", nil)
	require.Equal(t, http.StatusOK, code, body)
	if left := decode[Session](t, body); left.Scenario != "" || left.ID == b.ID {
		t.Errorf("leaving answers the session %+v", left)
	}
}

// TestTheStreamSendsEverySessionChange: a tab's stream gets a view when
// another tab starts a scenario, plays a step, resets, and leaves.
func TestTheStreamSendsEverySessionChange(t *testing.T) {
	hs, _ := newTestServer(t)
	r := openStream(t, hs, "/api/stream", 20*time.Second)
	next := func() Update { return r.next(t) }
	if u := next(); u.Session.Scenario != "" || u.Mode != "live" {
		t.Fatalf("the first update: mode %q session %+v", u.Mode, u.Session)
	}
	post(t, hs, "/api/scenario/start", map[string]any{"name": "kip101-part3"})
	u := next()
	if u.Session.Scenario != "kip101-part3" || u.Mode != "scenario" || u.Session.Play == nil {
		t.Fatalf("after another tab started a scenario the stream sent mode %q session %+v", u.Mode, u.Session)
	}
	post(t, hs, "/api/scenario/step", map[string]any{"session": u.Session.ID, "step": 0})
	if u = next(); u.Session.Step != 1 || u.Session.Play.Played == nil {
		t.Fatalf("after another tab played a step the stream sent session %+v", u.Session)
	}
	post(t, hs, "/api/reset", nil)
	if u = next(); u.Session.Scenario != "" || u.Mode != "live" || u.TimeMs != 0 {
		t.Fatalf("after another tab reset the stream sent mode %q t=%d session %+v", u.Mode, u.TimeMs, u.Session)
	}
	id := u.Session.ID
	post(t, hs, "/api/scenario/start", map[string]any{"name": "kip101-part3"})
	next()
	post(t, hs, "/api/scenario/leave", nil)
	if u = next(); u.Session.Scenario != "" || u.Session.ID <= id {
		t.Fatalf("after another tab left the scenario the stream sent session %+v", u.Session)
	}
}

// TestAQuestionComesBeforeWhatTheStepDoes checks every step of every
// scenario: before it is played the page gets its title, narration and
// question but neither the answer, the why nor (when it asks) its
// actions; once played, all of them.
func TestAQuestionComesBeforeWhatTheStepDoes(t *testing.T) {
	all, err := scenarios.All()
	require.NoError(t, err)
	for _, sc := range all {
		live := NewLiveWorld(nil) // the scenario brings its world
		s, err := live.StartScenario(sc.Name, 0, nil)
		require.NoError(t, err)
		for i := 0; !s.Play.Done; i++ {
			n := s.Play.Next
			b, err := json.Marshal(n)
			require.NoError(t, err)
			if n.Question != "" && len(n.Actions) > 0 {
				t.Errorf("%s step %s lists its actions before its question: %v", sc.Name, n.ID, n.Actions)
			}
			if n.Question == "" && len(n.Actions) == 0 {
				t.Errorf("%s step %s asks nothing and lists no actions", sc.Name, n.ID)
			}
			a := 0
			if n.Question != "" {
				a = 1
			}
			s, err = live.PlayStep(StepRequest{Session: s.ID, Step: &i, Answer: a})
			require.NoError(t, err)
			p := s.Play.Played
			if p == nil || p.ID != n.ID || len(p.Actions) == 0 || p.Title != n.Title {
				t.Fatalf("%s step %s played as %+v", sc.Name, n.ID, p)
			}
			if n.Question != "" {
				if p.Why != "" && strings.Contains(string(b), jsonText(t, p.Why)) {
					t.Errorf("%s step %s: the why is shown before the question", sc.Name, n.ID)
				}
				if p.Answer == 0 || p.Chosen != 1 || p.Question != n.Question {
					t.Errorf("%s step %s: played with answer %d chosen %d question %q", sc.Name, n.ID, p.Answer, p.Chosen, p.Question)
				}
			}
		}
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b[1 : len(b)-1])
}

// TestAStepTheWorldRefusesIsToldNotCrashed: a terminal command changes the
// scenario's world so that a step's action no longer fits it (kip101-part3
// starts broker 2 at step 5; the learner started it by hand). The step is
// answered 409 with the reason, every later step the same, the session
// does not move, and a replay to the step goes on from a world the
// scenario set up again.
func TestAStepTheWorldRefusesIsToldNotCrashed(t *testing.T) {
	hs, _ := newTestServer(t)
	code, body := post(t, hs, "/api/scenario/start", map[string]any{"name": "kip101-part3", "step": 5, "answers": []int{0, 0, 0, 0, 3}})
	require.Equal(t, http.StatusOK, code, body)
	s := decode[Session](t, body)
	code, body = post(t, hs, "/api/exec", map[string]any{"line": "start 2"})
	require.Equal(t, http.StatusOK, code, body)
	for range 2 {
		code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": s.ID, "step": s.Step, "answer": 1})
		require.Equal(t, http.StatusConflict, code, body)
		e := decode[sessionError](t, body)
		require.Contains(t, e.Error, `the world refused its action "start 2"`)
		if diff := cmp.Diff(s.Answers, e.Session.Answers); diff != "" || e.Session.Step != s.Step {
			t.Fatalf("a refused step moved the session to step %d; answers (-before +after):\n%s", e.Session.Step, diff)
		}
		if n := e.Session.Play.Next; n == nil || !strings.Contains(n.Refused, "replay the scenario to this step") {
			t.Fatalf("the session does not say the step is refused: %+v", n)
		}
	}
	code, body = post(t, hs, "/api/scenario/start", map[string]any{"name": "kip101-part3", "step": s.Step, "answers": s.Answers})
	require.Equal(t, http.StatusOK, code, body)
	r := decode[Session](t, body)
	code, body = post(t, hs, "/api/scenario/step", map[string]any{"session": r.ID, "step": r.Step, "answer": 1})
	require.Equal(t, http.StatusOK, code, body)
	if after := decode[Session](t, body); after.Step != s.Step+1 || after.Play.Next != nil && after.Play.Next.Refused != "" {
		t.Fatalf("the replayed scenario did not go on: %+v", after)
	}
}
