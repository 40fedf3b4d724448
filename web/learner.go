//go:build !js

package web

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/scenarios"
)

// This file is the page's side of the learning kit's live mode (go run
// ./exercises/live): the default world with a learner's code plugged in, the
// parts' marks ("your code" or "reference"), the faults, and the guided
// scenarios on the learner's code with their verdict against the reference.

// learnerState is what a Live keeps of the learner's code.
type learnerState struct {
	code kitlive.Code
	// shared is what every scenario's copy of the state shares: the
	// tests' results, the first divergence of each part, the watch on the
	// code's files.
	shared *learnerShared
	// live runs the code in the live world; scen in the scenario being played.
	live, scen *kitlive.Live
	// verdict is the scenario being played compared with the reference.
	verdict *kitlive.Comparison
	// guided is the scenario being played, when it is one of the learner's.
	guided *kitlive.Guided
}

// LearnerView is the view's part about the learner's code.
type LearnerView struct {
	// Parts says, per exercise, whether "your code" or the "reference"
	// runs, whether its tests pass, the scenarios that play it, and the
	// first divergence from the reference a scenario found in it.
	Parts []LearnerPart `json:"parts"`
	// Faults are the failed calls of the learner's code, with the input
	// and the stack: the first of each part, and how many more it had.
	Faults []LearnerFault `json:"faults,omitempty"`
	// Marks are the latest events the learner's code decided, newest last:
	// records it encoded, fetches its lookup served (offsets skipped or read
	// again), segments it recovered or deleted, cuts and assignments it chose.
	Marks []LearnerMark `json:"marks,omitempty"`
	// Verdict, at the end of a guided scenario on the learner's code, says
	// whether the outcome matches the reference's and where it first differs.
	Verdict *kitlive.Comparison `json:"verdict,omitempty"`
}

// LearnerMark is one event the learner's code decided, or a run of
// Count events of the same text in a row (Event is the first's line,
// LastMs the last's time).
type LearnerMark struct {
	// Part is the exercise, Event the event's line.
	Part   string `json:"part"`
	Event  string `json:"event"`
	Count  int    `json:"count,omitempty"`
	LastMs int64  `json:"last_ms,omitempty"`
}

// LearnerPart is one exercise's part as the page shows it.
type LearnerPart struct {
	kitlive.Status
	// Tests is "pass", "fail: WHY" (the chapter's suite on the learner's
	// code, run when the page started), "running" or "" (the reference
	// runs: nothing to test).
	Tests string `json:"tests,omitempty"`
	// Command runs the part's tests: go test ./exercises/chNN/NAME/.
	Command string `json:"command"`
	// Scenarios are the guided scenarios that play the part on the
	// learner's code.
	Scenarios []string `json:"scenarios,omitempty"`
	// Divergence is the first difference from the reference a guided
	// scenario found in the part, kept once found.
	Divergence *LearnerDivergence `json:"divergence,omitempty"`
	// Changed says the part's files changed on disk since the page
	// started: the page runs the code it started with, and says to
	// restart it.
	Changed bool `json:"changed,omitempty"`
}

// LearnerDivergence is where a scenario on the learner's code first left
// the reference's outcome.
type LearnerDivergence struct {
	Scenario string `json:"scenario"`
	kitlive.Difference
}

// LearnerFault is the first fault of a part, and how many followed it.
type LearnerFault struct {
	kitlive.Fault
	More int `json:"more,omitempty"`
	// Command runs the part's tests.
	Command string `json:"command"`
}

// learnerMarks is how many marks a view carries.
const learnerMarks = 30

// NewLearnerLive returns a Live showing the default world with code plugged in.
func NewLearnerLive(code kitlive.Code) (*Live, error) {
	st := &learnerState{code: code, shared: newLearnerShared(code)}
	w, err := st.newWorld()
	if err != nil {
		return nil, fmt.Errorf("web: default world on your code: %w", err)
	}
	return &Live{w: w, scripted: true, sessionID: 1, learner: st}, nil
}

// newWorld builds the default world on the learner's code (a fresh Live each
// time: a reset forgets the faults).
func (st *learnerState) newWorld() (*cluster.World, error) {
	st.live = kitlive.New(st.code)
	cfg := defaultworld.Config(defaultworld.Seed)
	cfg.Parts = st.live.ClusterParts()
	return defaultworld.NewWith(cfg)
}

// newWorld builds the world a Reset goes back to.
func (l *Live) newWorld() (*cluster.World, error) {
	if l.learner != nil {
		return l.learner.newWorld()
	}
	return l.defaultWorld()
}

// learnerScenarios lists the guided scenarios on the learner's code (none
// without one).
func (l *Live) learnerScenarios() ([]ScenarioInfo, error) {
	l.mu.Lock()
	st := l.learner
	l.mu.Unlock()
	if st == nil {
		return nil, nil
	}
	all, err := kitlive.Scenarios()
	if err != nil {
		return nil, err
	}
	var out []ScenarioInfo
	for _, g := range all {
		out = append(out, ScenarioInfo{Name: g.Name, Group: g.Group, GroupTitle: "Your code in the cluster", Title: g.Title,
			Summary: g.Summary, Source: g.Source, Steps: stepCount(g.Scenario), Part: g.Part})
	}
	return out, nil
}

// getScenario finds a scenario by name: the learner's first, on a fresh Live
// of the learner's code, then the embedded ones. It also compares a learner's
// scenario with the reference, for the verdict at its end.
func (l *Live) getScenario(name string) (*scenarios.Scenario, *learnerState, error) {
	l.mu.Lock()
	cur := l.learner
	l.mu.Unlock()
	if cur != nil {
		if g, err := kitlive.GetScenario(name); err == nil {
			cmp, err := kitlive.Compare(g, cur.code)
			if err != nil {
				return nil, nil, err
			}
			st := *cur
			st.scen, st.verdict, st.guided = kitlive.New(st.code), &cmp, &g
			return g.On(st.scen.ClusterParts()), &st, nil
		}
	}
	sc, err := scenarios.Get(name)
	if err != nil {
		return nil, nil, err
	}
	if cur == nil {
		return sc, nil, nil
	}
	st := *cur
	st.scen, st.verdict, st.guided = nil, nil, nil
	return sc, &st, nil
}

// learnerGeneration counts the changes of what the page shows of the
// learner's code beside the world (0 without it); l.mu is held.
func (l *Live) learnerGeneration() uint64 {
	if l.learner == nil {
		return 0
	}
	return l.learner.shared.generation()
}

// learnerView describes the learner's code in the world shown; l.mu is held.
func (l *Live) learnerView() *LearnerView {
	st := l.learner
	if st == nil {
		return nil
	}
	code := st.live
	if l.run != nil && st.scen != nil {
		code = st.scen
	}
	v := &LearnerView{}
	if l.run != nil && st.verdict != nil {
		if next, _ := l.run.Peek(); next == nil {
			v.Verdict = st.verdict
			st.shared.diverged(st.verdict)
		}
	}
	for _, s := range code.Statuses() {
		v.Parts = append(v.Parts, st.shared.part(s))
	}
	v.Faults = firstFaults(code.Faults())
	v.Marks = collapseMarks(l.world().Events(), code.PartOfEvent)
	return v
}

// firstFaults keeps the first fault of each part, counting the others.
func firstFaults(all []kitlive.Fault) []LearnerFault {
	var out []LearnerFault
	at := map[string]int{}
	for _, f := range all {
		if i, ok := at[f.Part]; ok {
			out[i].More++
			continue
		}
		at[f.Part] = len(out)
		out = append(out, LearnerFault{Fault: f, Command: testCommand(f.Part)})
	}
	return out
}

// collapseMarks lists the newest learnerMarks events the learner's code
// decided (partOf names a part, "" for the reference's), newest last,
// a run of events of the same text one mark with its count.
func collapseMarks(evs []cluster.Event, partOf func(cluster.Event) string) []LearnerMark {
	var out []LearnerMark
	for i := len(evs) - 1; i >= 0 && len(out) <= learnerMarks; i-- {
		p := partOf(evs[i])
		if p == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Part == p && evs[i].Text == markText(out[n-1]) {
			// the same decision again: one mark, counted, from the first
			if out[n-1].Count == 0 {
				out[n-1].Count, out[n-1].LastMs = 1, eventTime(out[n-1].Event)
			}
			out[n-1].Count++
			out[n-1].Event = evs[i].String()
			continue
		}
		out = append(out, LearnerMark{Part: p, Event: evs[i].String()})
	}
	if len(out) > learnerMarks {
		out = out[:learnerMarks]
	}
	slices.Reverse(out)
	return out
}

// markText is the text of a mark's event, without its time and place.
func markText(m LearnerMark) string {
	if _, text, ok := strings.Cut(m.Event, ": "); ok {
		return text
	}
	return m.Event
}

// eventTime reads the time of an event's line ("t=123 ...").
func eventTime(line string) int64 {
	var ms int64
	fmt.Sscanf(line, "t=%d", &ms)
	return ms
}

// testCommand is the go test command of a part: ch02/index is
// go test ./exercises/ch02/index/.
func testCommand(part string) string {
	return "go test ./exercises/" + part + "/"
}
