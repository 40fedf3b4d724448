package web

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/scenarios"
)

// ScenarioInfo is one guided scenario in the list.
type ScenarioInfo struct {
	Name    string `json:"name"`
	Group   string `json:"group"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	Source  string `json:"source"`
	Steps   int    `json:"steps"`
}

// ListScenarios lists the embedded scenarios in the order of
// scenarios.Groups.
func ListScenarios() ([]ScenarioInfo, error) {
	all, err := scenarios.All()
	if err != nil {
		return nil, err
	}
	out := make([]ScenarioInfo, 0, len(all))
	for _, s := range all {
		n := len(s.Steps)
		for _, b := range s.Branches {
			n += len(b.Steps)
		}
		out = append(out, ScenarioInfo{Name: s.Name, Group: s.Group, Title: s.Title, Summary: s.Summary, Source: s.Source, Steps: n})
	}
	return out, nil
}

// StepView is what the page shows of a scenario: the step about to be
// played (its question, without the answer), and after playing, what
// happened and why.
type StepView struct {
	Scenario string   `json:"scenario"`
	Title    string   `json:"title"`
	Intro    []string `json:"intro,omitempty"`
	// Next is the step the next play will run (nil at the end).
	Next *PendingStep `json:"next,omitempty"`
	// Played is the step just played (nil before the first).
	Played *PlayedStep `json:"played,omitempty"`
	Done   bool        `json:"done"`
}

// PendingStep is a step not yet played.
type PendingStep struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Branch    string   `json:"branch,omitempty"`
	Fork      []string `json:"fork,omitempty"`
	Narration []string `json:"narration"`
	Actions   []string `json:"actions"`
	Question  string   `json:"question,omitempty"`
	Choices   []string `json:"choices,omitempty"`
}

// PlayedStep is a step that was played: the answer and why, the events,
// and the reference facts the simulation did not reach.
type PlayedStep struct {
	ID     string   `json:"id"`
	Answer int      `json:"answer,omitempty"`
	Why    string   `json:"why,omitempty"`
	Events []string `json:"events"`
	Failed []string `json:"failed,omitempty"`
}

// StartScenario starts playing the scenario called name; the page then
// shows its world, and the live clock waits.
func (l *Live) StartScenario(name string) (StepView, error) {
	sc, err := scenarios.Get(name)
	if err != nil {
		return StepView{}, err
	}
	run, err := scenarios.NewRun(sc, 0)
	if err != nil {
		return StepView{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.run, l.sc, l.done, l.past = run, sc, false, nil
	l.version++
	v := l.stepView(nil)
	v.Intro = sc.Intro
	return v, nil
}

// PlayStep plays the next step of the scenario.
func (l *Live) PlayStep() (StepView, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.run == nil {
		return StepView{}, ErrNoScenario
	}
	l.version++
	out, err := l.run.Next()
	if errors.Is(err, scenarios.ErrDone) {
		l.done = true
		return l.stepView(nil), nil
	}
	if err != nil {
		return StepView{}, fmt.Errorf("web: scenario %s: %w", l.sc.Name, err)
	}
	p := &PlayedStep{ID: out.Step.ID}
	if q := out.Step.Question; q != nil {
		p.Answer, p.Why = q.Answer, q.Why
	}
	for _, e := range out.Events {
		p.Events = append(p.Events, fmt.Sprintf("t=%d %s", e.TimeMs, e.Text))
	}
	for _, c := range out.Failed() {
		p.Failed = append(p.Failed, c.String())
	}
	return l.stepView(p), nil
}

// LeaveScenario goes back to the live world.
func (l *Live) LeaveScenario() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.run, l.sc, l.past = nil, nil, nil
	l.version++
}

// stepView describes the scenario's position; l.mu is held.
func (l *Live) stepView(played *PlayedStep) StepView {
	v := StepView{Scenario: l.sc.Name, Title: l.sc.Title, Played: played}
	st, br := l.run.Peek()
	if st == nil {
		v.Done = true
		return v
	}
	n := &PendingStep{ID: st.ID, Title: st.Title, Narration: st.Narration}
	if br != nil {
		n.Branch, n.Fork = br.Name, br.Intro
	}
	for _, a := range st.Actions {
		n.Actions = append(n.Actions, a.String())
	}
	if q := st.Question; q != nil {
		n.Question, n.Choices = q.Text, q.Choices
	}
	v.Next = n
	return v
}
