package web

import (
	"fmt"

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
	// live runs the code in the live world; scen in the scenario being played.
	live, scen *kitlive.Live
	// verdict is the scenario being played compared with the reference.
	verdict *kitlive.Comparison
	// guided is the scenario being played, when it is one of the learner's.
	guided *kitlive.Guided
}

// LearnerView is the view's part about the learner's code.
type LearnerView struct {
	// Parts says, per exercise, whether "your code" or the "reference" runs.
	Parts []kitlive.Status `json:"parts"`
	// Faults are the failed calls of the learner's code, with the input and the stack.
	Faults []kitlive.Fault `json:"faults,omitempty"`
	// Marks are the latest events the learner's code decided, newest last:
	// records it encoded, fetches its lookup served (offsets skipped or read
	// again), segments it recovered or deleted, cuts and assignments it chose.
	Marks []LearnerMark `json:"marks,omitempty"`
	// Verdict, at the end of a guided scenario on the learner's code, says
	// whether the outcome matches the reference's and where it first differs.
	Verdict *kitlive.Comparison `json:"verdict,omitempty"`
}

// LearnerMark is one event the learner's code decided.
type LearnerMark struct {
	// Part is the exercise, Event the event's line.
	Part  string `json:"part"`
	Event string `json:"event"`
}

// learnerMarks is how many marks a view carries.
const learnerMarks = 30

// NewLearnerLive returns a Live showing the default world with code plugged in.
func NewLearnerLive(code kitlive.Code) (*Live, error) {
	st := &learnerState{code: code}
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
	return defaultworld.New(defaultworld.Seed)
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
			Summary: g.Summary, Source: g.Source, Steps: stepCount(g.Scenario)})
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
	v := &LearnerView{Parts: code.Statuses(), Faults: code.Faults()}
	if l.run != nil && st.verdict != nil {
		if next, _ := l.run.Peek(); next == nil {
			v.Verdict = st.verdict
		}
	}
	evs := l.world().Events()
	for i := len(evs) - 1; i >= 0 && len(v.Marks) < learnerMarks; i-- {
		if p := code.PartOfEvent(evs[i]); p != "" {
			v.Marks = append(v.Marks, LearnerMark{Part: p, Event: evs[i].String()})
		}
	}
	for i, j := 0, len(v.Marks)-1; i < j; i, j = i+1, j-1 {
		v.Marks[i], v.Marks[j] = v.Marks[j], v.Marks[i]
	}
	return v
}
