package web

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/scenarios"
)

// ScenarioInfo is one guided scenario in the list: its card (title and
// summary) and its group's heading, from the scenario files.
type ScenarioInfo struct {
	Name  string `json:"name"`
	Group string `json:"group"`
	// GroupTitle is the heading of its group (scenarios.GroupTitles).
	GroupTitle string `json:"group_title"`
	Title      string `json:"title"`
	// Summary is the line under the title: what the scenario sets up.
	Summary string `json:"summary"`
	Source  string `json:"source"`
	Steps   int    `json:"steps"`
	// Part is the exercise a guided scenario on the learner's code plays,
	// e.g. "ch02/index" (go run ./exercises/live only).
	Part string `json:"part,omitempty"`
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
		out = append(out, ScenarioInfo{Name: s.Name, Group: s.Group, GroupTitle: scenarios.GroupTitles[s.Group], Title: s.Title,
			Summary: s.Summary, Source: s.Source, Steps: stepCount(s)})
	}
	return out, nil
}

// stepCount counts a scenario's steps, its branches' included.
func stepCount(s *scenarios.Scenario) int {
	n := len(s.Steps)
	for _, b := range s.Branches {
		n += len(b.Steps)
	}
	return n
}

// Session is the page's session, the one source of truth every tab
// follows: the scenario being played (none: the live world), how many of
// its steps were played and the answer chosen at each. The page keeps the
// same in its URL (?scenario=NAME&step=N&answers=A,B,...), so that a reload
// after the server restarted starts the scenario again at the same step
// (StartScenario); while the server plays one, the server wins.
type Session struct {
	// ID changes whenever a scenario starts or is left and at every
	// Reset: a tab that asks to play a step of session ID that is gone
	// gets ErrStaleSession and the server's session.
	ID uint64 `json:"id"`
	// Scenario is the scenario's name, "" in the live world.
	Scenario string `json:"scenario,omitempty"`
	// Step counts the steps played.
	Step int `json:"step"`
	// Answers are the choices made at the steps played, in order (the
	// 1-based choice, 0 for a step without a question or played without
	// a guess).
	Answers []int `json:"answers,omitempty"`
	// Play is what the scenario panel shows (nil in the live world).
	Play *StepView `json:"play,omitempty"`
}

// StepView is what the page shows of a scenario: the step about to be
// played (its title, narration and question, without the answer and
// without what it will do), and after playing, what happened and why.
type StepView struct {
	Scenario string `json:"scenario"`
	Title    string `json:"title"`
	// Intro is the narration before the first step (set until one is
	// played).
	Intro []string `json:"intro,omitempty"`
	// Steps counts the scenario's steps, its branches' included.
	Steps int `json:"steps"`
	// Next is the step the next play will run (nil at the end).
	Next *PendingStep `json:"next,omitempty"`
	// Played is the step just played (nil before the first).
	Played *PlayedStep `json:"played,omitempty"`
	Done   bool        `json:"done"`
	// Lesson is the decisive outcome the scenario teaches, told at its
	// end (set once Done).
	Lesson string `json:"lesson,omitempty"`
}

// PendingStep is a step not yet played: what the scenario tells before its
// question (guess, then watch: nothing of what will happen). A step with a
// question does not list its actions until it is played (they can give
// the answer away: "writeback 2" before "what is on B's disk?"); a step
// without one lists them.
type PendingStep struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Branch    string   `json:"branch,omitempty"`
	Fork      []string `json:"fork,omitempty"`
	Narration []string `json:"narration"`
	Actions   []string `json:"actions,omitempty"`
	Question  string   `json:"question,omitempty"`
	// Refused says why the step cannot be played: the world refused one
	// of its actions, having been changed by hand (a terminal command)
	// since the scenario set it up. Only a replay to this step (starting
	// the scenario again at it) or leaving goes on.
	Refused string   `json:"refused,omitempty"`
	Choices []string `json:"choices,omitempty"`
	// Wait is set while the step waits for records of a Kafka client of
	// the user's.
	Wait *WaitView `json:"wait,omitempty"`
}

// WaitView is a step waiting for the records of the user's Kafka client
// (scenarios.Wait): where to point it, what the brokers have seen of it,
// and the answer chosen while it waits.
type WaitView struct {
	Topic   string `json:"topic"`
	Records int64  `json:"records"`
	// Have counts the records the topic holds so far.
	Have int64 `json:"have"`
	// Bootstrap is broker 1's listener, "" when the page has none (then
	// only a simulated producer can send the records).
	Bootstrap string `json:"bootstrap,omitempty"`
	// Clients are the Kafka clients the brokers have seen, as "client.id
	// from HOST:PORT": the user's client, once it has spoken.
	Clients []string `json:"clients,omitempty"`
	// Held is the answer chosen while the step waits (0: none yet, -1:
	// played without a guess): the step plays with it once the records
	// are there.
	Held int `json:"held,omitempty"`
}

// PlayedStep is a step that was played: its question, the choice made and
// the right one and why, what it did, the events, and the reference facts
// the simulation did not reach.
type PlayedStep struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Branch   string   `json:"branch,omitempty"`
	Actions  []string `json:"actions"`
	Question string   `json:"question,omitempty"`
	Choices  []string `json:"choices,omitempty"`
	// Chosen is the choice made (0: none); Answer the right one.
	Chosen int    `json:"chosen,omitempty"`
	Answer int    `json:"answer,omitempty"`
	Why    string `json:"why,omitempty"`
	// Outcome is the title of what happened; Reveal the paragraphs told
	// with the why.
	Outcome string   `json:"outcome,omitempty"`
	Reveal  []string `json:"reveal,omitempty"`
	Events  []string `json:"events"`
	Failed  []string `json:"failed,omitempty"`
	// StandIn says a simulated producer sent the records the step waited
	// for, in place of the user's client.
	StandIn bool `json:"stand_in,omitempty"`
}

// The session's errors.
var (
	// ErrStaleSession means a tab asked to play a step of a session
	// that is gone (another tab reset the world, left or restarted the
	// scenario, or played the step first).
	ErrStaleSession = errors.New("web: the session changed")
	// ErrBadAnswer means a chosen answer is not one of the step's
	// choices.
	ErrBadAnswer = errors.New("web: no such choice")
	// ErrNoSuchScenario means a scenario name is not one of the list.
	ErrNoSuchScenario = errors.New("web: no such scenario")
)

// StartScenario starts playing the scenario called name and plays its
// first steps steps at once with the answers given (a reload's URL: the
// steps are deterministic, so the world is the one left); the page then
// shows its world, every tab follows, and the live clock waits. steps
// beyond the scenario's end stop at its end.
func (l *Live) StartScenario(name string, steps int, answers []int) (Session, error) {
	sc, lst, err := l.getScenario(name)
	if err != nil {
		return Session{}, fmt.Errorf("%w: %q", ErrNoSuchScenario, name)
	}
	if steps < 0 || len(answers) > steps {
		return Session{}, fmt.Errorf("web: scenario %s: %d answers for %d steps", name, len(answers), steps)
	}
	run, err := scenarios.NewRun(sc, 0)
	if err != nil {
		return Session{}, err
	}
	// Replay outside the lock: the page goes on showing the old world.
	var played *PlayedStep
	var chosen []int
	for i := 0; i < steps; i++ {
		a := 0
		if i < len(answers) {
			a = answers[i]
		}
		p, err := playStep(sc, run, a, false, "")
		if errors.Is(err, scenarios.ErrDone) {
			break
		}
		if err != nil {
			return Session{}, err
		}
		played, chosen = p, append(chosen, p.Chosen)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	// From here on a step that waits for the user's client waits for it,
	// on a page with listeners (the replay above played stand-ins: the
	// world is new, and no client has written to it).
	run.HoldForClients = l.kafka != nil
	l.run, l.sc, l.past, l.held, l.replaced = run, sc, nil, 0, replacedByScenario
	l.played, l.answers = played, chosen
	if lst != nil {
		l.learner = lst
	}
	l.newSession()
	return l.session(), nil
}

// StepRequest asks to play the next step of a session: the session and
// step the tab shows, and the answer chosen (0: none).
type StepRequest struct {
	// Session is the ID of the session the tab shows (0: whatever is
	// playing).
	Session uint64 `json:"session,omitempty"`
	// Step is how many steps the tab saw played (-1 or absent with
	// Session 0: any).
	Step *int `json:"step,omitempty"`
	// Answer is the 1-based choice made, 0 for none.
	Answer int `json:"answer,omitempty"`
	// StandIn asks for the step that waits for the user's Kafka client
	// to be played with a simulated producer in its place.
	StandIn bool `json:"stand_in,omitempty"`
	// Hold asks for the step that waits for the user's client to be
	// played, with Answer, as soon as its records are there; until then
	// the request is answered ErrWaiting, and the session says the
	// answer is held (WaitView.Held).
	Hold bool `json:"hold,omitempty"`
}

// PlayStep plays the next step of the scenario with the answer chosen. A
// request for a session or a step that is not the server's gets
// ErrStaleSession (and nothing is played): the tab follows the server's
// session instead.
func (l *Live) PlayStep(req StepRequest) (Session, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.run == nil {
		if req.Session != 0 {
			return l.session(), fmt.Errorf("%w: the scenario is no longer played (another tab reset the world or left it)", ErrStaleSession)
		}
		return l.session(), ErrNoScenario
	}
	switch {
	case req.Session != 0 && req.Session != l.sessionID:
		return l.session(), fmt.Errorf("%w: another tab started %s again or reset the world", ErrStaleSession, l.sc.Name)
	case req.Step != nil && *req.Step >= 0 && *req.Step != len(l.answers):
		return l.session(), fmt.Errorf("%w: %s is at step %d, not %d (another tab played it)", ErrStaleSession, l.sc.Name, len(l.answers), *req.Step)
	}
	if st, _ := l.run.Peek(); st != nil && !validAnswer(st, req.Answer) {
		return l.session(), fmt.Errorf("%w: %d for step %s", ErrBadAnswer, req.Answer, st.ID)
	}
	if wt, _ := l.run.Waiting(); wt != nil && !req.StandIn && req.Hold {
		l.held = heldAnswer(req.Answer)
		l.bump()
	}
	return l.playNext(req.Answer, req.StandIn)
}

// heldAnswer is how WaitView.Held keeps an answer: -1 for none.
func heldAnswer(a int) int {
	if a == 0 {
		return -1
	}
	return a
}

// playNext plays the next step with answer a (with the stand-in when
// standIn); l.mu is held.
func (l *Live) playNext(a int, standIn bool) (Session, error) {
	p, err := playStep(l.sc, l.run, a, standIn, l.bootstrap())
	if errors.Is(err, scenarios.ErrDone) {
		l.bump()
		return l.session(), nil
	}
	if errors.Is(err, scenarios.ErrWaiting) {
		return l.session(), err
	}
	if errors.Is(err, scenarios.ErrStepRefused) {
		l.bump()
		return l.session(), refusedStep{err}
	}
	if err != nil {
		return l.session(), fmt.Errorf("web: scenario %s: %w", l.sc.Name, err)
	}
	l.played, l.answers, l.held = p, append(l.answers, p.Chosen), 0
	l.past = nil
	l.bump()
	return l.session(), nil
}

// refusedStep is a scenarios.ErrStepRefused told to the learner.
type refusedStep struct{ err error }

func (r refusedStep) Error() string { return refusedText(r.err) }
func (r refusedStep) Unwrap() error { return r.err }

// refusedText tells the learner why the scenario cannot go on.
func refusedText(err error) string {
	var e *scenarios.StepRefusedError
	if !errors.As(err, &e) {
		return err.Error()
	}
	return fmt.Sprintf("Step %s cannot be played: the world refused its action %q (%v). The world was changed by hand since the scenario set it up; replay the scenario to this step, or leave it.", e.Step, e.Action, e.Err)
}

// validAnswer says whether a is a choice of st (0, none, always is).
func validAnswer(st *scenarios.Step, a int) bool {
	if a == 0 {
		return true
	}
	return st.Question != nil && a >= 1 && a <= len(st.Question.Choices)
}

// playStep plays run's next step with the choice a (dropped when the
// step asks nothing or a is not one of its choices), with its stand-in
// for the user's client when standIn; bootstrap fills the texts.
func playStep(sc *scenarios.Scenario, run *scenarios.Run, a int, standIn bool, bootstrap string) (*PlayedStep, error) {
	st, _ := run.Peek()
	if st == nil {
		return nil, scenarios.ErrDone
	}
	if !validAnswer(st, a) {
		a = 0
	}
	next := run.Next
	if standIn {
		next = run.NextStandIn
	}
	out, err := next()
	if err != nil {
		return nil, err
	}
	fill := func(s string) string { return scenarios.Fill(s, bootstrapOr(bootstrap)) }
	p := &PlayedStep{ID: st.ID, Title: st.Title, Actions: actionLines(st), Chosen: a, Events: []string{},
		Outcome: st.Outcome, StandIn: out.StandIn}
	for _, r := range st.Reveal {
		p.Reveal = append(p.Reveal, fill(r))
	}
	p.Branch = out.InBranch
	if q := st.Question; q != nil {
		p.Question, p.Choices, p.Answer, p.Why = q.Text, q.Choices, q.Answer, fill(q.Why)
	}
	for _, e := range out.Events {
		p.Events = append(p.Events, eventLine(e))
	}
	for _, c := range out.Failed() {
		p.Failed = append(p.Failed, c.String())
	}
	return p, nil
}

func actionLines(st *scenarios.Step) []string {
	out := make([]string, 0, len(st.Actions)+1)
	if wt := st.Wait; wt != nil {
		out = append(out, fmt.Sprintf("wait external topic=%s records=%d", wt.Topic, wt.Records))
	}
	for _, a := range st.Actions {
		out = append(out, a.String())
	}
	return out
}

// LeaveScenario goes back to the live world; every tab follows.
func (l *Live) LeaveScenario() Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.run != nil {
		l.run, l.sc, l.past, l.replaced = nil, nil, nil, replacedByLeave
		l.played, l.answers, l.held = nil, nil, 0
		l.newSession()
	}
	return l.session()
}

// Session returns the page's session.
func (l *Live) Session() Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.session()
}

// newSession starts a new session (a scenario started or left, a Reset)
// and wakes every stream; l.mu is held.
func (l *Live) newSession() {
	l.sessionID++
	l.bump()
}

// session describes the session; l.mu is held.
func (l *Live) session() Session {
	s := Session{ID: l.sessionID}
	if l.run == nil {
		return s
	}
	s.Scenario, s.Step, s.Answers = l.sc.Name, len(l.answers), slices.Clone(l.answers)
	v := l.stepView()
	s.Play = &v
	return s
}

// stepView describes the scenario's position; l.mu is held.
func (l *Live) stepView() StepView {
	v := StepView{Scenario: l.sc.Name, Title: l.sc.Title, Steps: stepCount(l.sc), Played: l.played}
	if len(l.answers) == 0 {
		v.Intro = l.sc.Intro
	}
	st, br := l.run.Peek()
	if st == nil {
		v.Done, v.Lesson = true, l.sc.Lesson
		return v
	}
	boot := l.bootstrap()
	n := &PendingStep{ID: st.ID, Title: st.Title, Narration: []string{}}
	for _, t := range st.Narration {
		n.Narration = append(n.Narration, scenarios.Fill(t, bootstrapOr(boot)))
	}
	if wt, have := l.run.Waiting(); wt != nil {
		w := &WaitView{Topic: wt.Topic, Records: wt.Records, Have: have, Bootstrap: boot, Held: l.held}
		for _, c := range l.run.World().ExternalClients() {
			id := c.ClientID
			if id == "" {
				id = "a client without client.id"
			}
			w.Clients = append(w.Clients, id+" from "+c.Remote)
		}
		n.Wait = w
	}
	if br != nil {
		n.Branch, n.Fork = br.Name, br.Intro
	} else if l.played != nil {
		n.Branch = l.played.Branch
	}
	if err := l.run.Refused(); err != nil {
		n.Refused = refusedText(err)
	}
	if q := st.Question; q != nil {
		n.Question, n.Choices = q.Text, q.Choices
	} else {
		n.Actions = actionLines(st)
	}
	v.Next = n
	return v
}

// bootstrap is broker 1's Kafka listener, "" without listeners; l.mu is
// held.
func (l *Live) bootstrap() string {
	if l.kafka == nil {
		return ""
	}
	return l.kafka.bootstrap()
}

// bootstrapOr is b, or where broker 1 listens by default when the page
// has no listeners.
func bootstrapOr(b string) string {
	if b == "" {
		return scenarios.DefaultBootstrap
	}
	return b
}
