package scenarios

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster"
)

// ErrDone means every step of a Run has been played.
var ErrDone = errors.New("scenarios: no more steps")

// ErrWaiting means the next step waits for an external client's records
// (Step.Wait) that are not all there yet; nothing was played.
var ErrWaiting = errors.New("scenarios: waiting for records from your client")

// ErrStepRefused means the world refused an action of a step, part of
// which may have been played: in a scenario file it is a mistake of the
// file; on the page, the world was changed by hand (a terminal command)
// so that the step no longer fits it. The Run stays at that step and
// answers the same error to every later Next: the scenario goes on only
// from a fresh Run (replayed to that step).
var ErrStepRefused = errors.New("scenarios: the world refused a step")

// StepRefusedError is an ErrStepRefused: which action of which step the
// world refused, and why.
type StepRefusedError struct {
	Scenario, Step string
	// Line is the step's line in the scenario file.
	Line int
	// Action is the action refused, as the terminal writes it.
	Action string
	// Err is the world's reason.
	Err error
}

func (e *StepRefusedError) Error() string {
	return fmt.Sprintf("scenario %s: step %s (line %d): %s: %v", e.Scenario, e.Step, e.Line, e.Action, e.Err)
}

// Is makes errors.Is(err, ErrStepRefused) true.
func (e *StepRefusedError) Is(target error) bool { return target == ErrStepRefused }

// Unwrap returns the world's reason.
func (e *StepRefusedError) Unwrap() error { return e.Err }

// Run plays a scenario step by step on a fresh world.
type Run struct {
	sc  *Scenario
	cfg cluster.Config
	w   *cluster.World
	// ends[id] is the number of actions after main step id (for branches).
	ends   map[string]int
	main   *cluster.World
	branch int // -1 on the main line, else the index in sc.Branches
	next   int // the next step's index on the current line
	// refused is the error of the step the world refused (nil: none); the
	// Run plays nothing after it.
	refused error
	// HoldForClients makes a step that waits for the records of a Kafka
	// client of the user's (Step.Wait) wait for them whether or not a
	// client has spoken yet: Next answers ErrWaiting until they are
	// there, and NextStandIn plays the step with its stand-in instead.
	// Unset (kafkalive play, the tests), the stand-in plays whenever no
	// client has spoken to the world.
	HoldForClients bool
}

// Outcome is what one step did.
type Outcome struct {
	Step *Step
	// Branch is set on the first step of a branch (the world was rebuilt).
	Branch *Branch
	// InBranch names the branch the step belongs to ("" on the main line).
	InBranch string
	// Events happened during the step (actions and message traces left out).
	Events []cluster.Event
	// StandIn says the step waited for the records of the user's client
	// and its stand-in (Wait.StandIn) played in its place.
	StandIn bool
	// Before and After are the states around the step.
	Before, After cluster.State
	Checks        []Check
}

// Failed lists the checks that went the unexpected way.
func (o Outcome) Failed() []Check {
	var out []Check
	for _, c := range o.Checks {
		if c.Failed() {
			out = append(out, c)
		}
	}
	return out
}

// NewRun starts sc on a fresh world. seed 0 keeps the scenario's seed.
func NewRun(sc *Scenario, seed uint64) (*Run, error) {
	cfg := sc.Config
	if seed != 0 {
		cfg.Seed = seed
	}
	w, err := cluster.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	return &Run{sc: sc, cfg: cfg, w: w, ends: map[string]int{}, branch: -1}, nil
}

// World returns the world being played (a new one after each fork).
func (r *Run) World() *cluster.World { return r.w }

// Next plays the next step and checks its facts. It returns ErrDone after
// the last step of the last branch, and ErrWaiting while the step waits
// for records of the user's client (see HoldForClients). An action the
// world refuses is an ErrStepRefused, answered again to every later call.
func (r *Run) Next() (Outcome, error) { return r.next1(false) }

// NextStandIn plays the next step as Next does, with a simulated producer
// standing in for the user's client if the step waits for records that
// are not all there (Wait.StandIn).
func (r *Run) NextStandIn() (Outcome, error) { return r.next1(true) }

func (r *Run) next1(standInAsked bool) (Outcome, error) {
	var o Outcome
	if r.refused != nil {
		return o, r.refused
	}
	steps := r.sc.Steps
	if r.branch >= 0 {
		steps = r.sc.Branches[r.branch].Steps
	}
	if r.next >= len(steps) {
		if err := r.fork(); err != nil {
			return o, err
		}
		o.Branch = &r.sc.Branches[r.branch]
		steps = o.Branch.Steps
	}
	if r.branch >= 0 {
		o.InBranch = r.sc.Branches[r.branch].Name
	}
	o.Step = &steps[r.next]
	var standIn []cluster.Action
	if wt := o.Step.Wait; wt != nil {
		if have := r.written(wt.Topic); have < wt.Records {
			if !standInAsked && (r.HoldForClients || len(r.w.ExternalClients()) > 0) {
				return Outcome{}, fmt.Errorf("%w: step %s: %d of %d records in %s", ErrWaiting, o.Step.ID, have, wt.Records, wt.Topic)
			}
			standIn = wt.StandIn
		}
	}
	r.next++
	o.StandIn = standIn != nil
	return r.play(o, standIn)
}

// Waiting returns the wait of the step Next would play while it is not
// over (the records it waits for are not all there yet), and how many
// records are there; nil when the next step does not wait or its records
// are there. While it waits, the world's owner runs the world with the
// wall clock.
func (r *Run) Waiting() (*Wait, int64) {
	st, b := r.Peek()
	if st == nil || st.Wait == nil || b != nil {
		return nil, 0
	}
	have := r.written(st.Wait.Topic)
	if have >= st.Wait.Records {
		return nil, have
	}
	return st.Wait, have
}

// written counts the records of topic: the sum of its partitions' log
// end offsets on their leaders (an offline partition counts none).
func (r *Run) written(topic string) int64 {
	var n int64
	for _, p := range r.w.State().Partitions {
		if p.Topic == topic && p.LogEndOffset > 0 {
			n += p.LogEndOffset
		}
	}
	return n
}

// fork moves to the next branch: the main line's actions up to its fork
// point, replayed under the branch's config.
func (r *Run) fork() error {
	if r.branch < 0 {
		r.main = r.w
	}
	if r.branch+1 >= len(r.sc.Branches) {
		return ErrDone
	}
	r.branch++
	r.next = 0
	b := r.sc.Branches[r.branch]
	cfg := b.Config
	cfg.Seed = r.cfg.Seed
	acts := r.main.Actions()[:r.ends[b.After]]
	w, err := cluster.Replay(cfg, acts)
	if err != nil {
		return fmt.Errorf("scenario %s: branch %s: %w", r.sc.Name, b.Name, err)
	}
	r.w = w
	if len(b.Steps) == 0 {
		return r.fork()
	}
	return nil
}

// play applies the step's actions, after standIn (a waiting step's
// stand-in, when no client is there), and checks its facts.
func (r *Run) play(o Outcome, standIn []cluster.Action) (Outcome, error) {
	o.Before = r.w.State()
	firstEvent, firstAction := nextEventSeq(r.w), len(r.w.Actions())
	for _, a := range slices.Concat(standIn, o.Step.Actions) {
		if err := r.w.Do(a); err != nil {
			r.refused = &StepRefusedError{Scenario: r.sc.Name, Step: o.Step.ID, Line: o.Step.Line, Action: a.String(), Err: err}
			return o, r.refused
		}
	}
	if r.branch < 0 {
		r.ends[o.Step.ID] = len(r.w.Actions())
	}
	for _, e := range r.w.Events() {
		if e.Seq >= firstEvent && r.sc.shows(e.Kind) {
			o.Events = append(o.Events, e)
		}
	}
	o.After = r.w.State()
	c := checker{sc: r.sc, st: o.After, w: r.w, firstAfter: firstAction}
	for _, f := range o.Step.Expect {
		o.Checks = append(o.Checks, c.check(f))
	}
	return o, nil
}

// shows reports whether a step's outcome lists events of kind k.
func (sc *Scenario) shows(k cluster.EventKind) bool {
	if sc.Events == nil {
		return k != cluster.EventAction && k != cluster.EventMessage
	}
	return slices.Contains(sc.Events, k)
}

// Peek returns the step Next will play without playing it, and the branch
// if that step starts one (nil, nil after the last step).
func (r *Run) Peek() (*Step, *Branch) {
	if r.branch < 0 && r.next < len(r.sc.Steps) {
		return &r.sc.Steps[r.next], nil
	}
	if r.branch >= 0 && r.next < len(r.sc.Branches[r.branch].Steps) {
		return &r.sc.Branches[r.branch].Steps[r.next], nil
	}
	for i := r.branch + 1; i < len(r.sc.Branches); i++ {
		if b := &r.sc.Branches[i]; len(b.Steps) > 0 {
			return &b.Steps[0], b
		}
	}
	return nil, nil
}

// Refused returns the ErrStepRefused of the step the world refused, nil
// while the Run can go on.
func (r *Run) Refused() error { return r.refused }

// Scenario returns the scenario being played.
func (r *Run) Scenario() *Scenario { return r.sc }

// nextEventSeq is the number the next event of w gets (events may fall off
// the front of a long history: cluster.MaxEvents).
func nextEventSeq(w *cluster.World) int {
	evs := w.Events()
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq + 1
}
