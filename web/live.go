package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/scenarios"
)

// ErrNoScenario means a scenario step was asked for while none is playing.
var ErrNoScenario = errors.New("web: no scenario is playing")

// Live holds the world the page shows, behind a mutex: the live default
// world, or the world of a guided scenario being played. The cluster has no
// clock; Advance moves its virtual time.
type Live struct {
	mu     sync.Mutex
	w      *cluster.World
	paused bool
	// speed is how many virtual milliseconds pass per wall-clock
	// millisecond (0 means 1).
	speed int64
	// run is the scenario being played (nil in live mode); the world is
	// then run.World().
	run *scenarios.Run
	sc  *scenarios.Scenario
	// sessionID numbers the page's session (Session.ID); played is the
	// scenario's step played last and answers the choice made at each
	// step played.
	sessionID uint64
	played    *PlayedStep
	answers   []int
	// held is the answer chosen for a step that waits for the records of
	// the user's Kafka client (WaitView.Held; -1: played without a
	// guess, 0: none): Advance plays the step with it once they are there.
	held int
	// forked is how far the last line's fork went (Live.ExecLine).
	forked *Fork
	// past caches the last moment of the timeline rebuilt, keyed by the
	// number of events of w and the time asked for.
	past        *cluster.World
	pastActions int
	pastMs      int64
	// version counts changes, so that the stream can tell a new state;
	// changed is closed (and replaced) at each change, so that the stream
	// sends every state as it happens instead of polling for it.
	version uint64
	changed chan struct{}
	// encoded caches the present's update per focus at cachedVersion, so
	// that pages showing the same partition share one State; versions
	// numbers the changes of the entities the updates carry.
	encoded       map[Focus]*EncodedUpdate
	cachedVersion uint64
	versions      Versions
	// learnerGen is the generation of the learner's part of the page the
	// cached updates show (learnerGeneration).
	learnerGen uint64
	// marks are the timeline's ticks of the world shown.
	marks marks
	// execMu holds the page's terminal lines back while one runs (Exec):
	// a long run holds the next line, not the views.
	execMu sync.Mutex
	// line is the page's terminal line being run (Exec), normalised;
	// entry is its place in script once it acted (-1 before); ctx is
	// its request's context.
	line  string
	entry int
	ctx   context.Context
	// script is what was done to the live world since it was new, as
	// the terminal lines that replay it (see replayCommand); scripted is
	// false when it is not the default world or something acted on it
	// without a line.
	script   []scriptLine
	scripted bool
	// running counts long runs in progress (RunFor): the clock's
	// Advance waits for them.
	running int
	// failed is the world that hit an internal error, and the error.
	failed  *cluster.World
	failure error
	// step advances a world by ms: RunFor on it (tests inject a failing
	// world here).
	step func(w *cluster.World, ms int64) error
	// learner is the learner's code plugged into the worlds (exercises/live;
	// nil: the reference everywhere), see learner.go.
	learner *learnerState
	// kafka is the backend of the brokers' Kafka listeners (a *Kafka,
	// kafka.go), nil without them.
	kafka clientsPanel
	// replaced says what last replaced the world shown, for the Kafka
	// clients' notice.
	replaced replacedBy
	// cfg is the default world's config (nil: defaultworld.Config), which
	// Reset builds again.
	cfg *cluster.Config
	// wallClock, when set, is the wall clock (milliseconds since the Unix
	// epoch): each default world built starts Kafka's clock at its time
	// (cluster.Config.ClockStartMs).
	wallClock func() int64
}

// clientsPanel is what the Live asks of the brokers' listeners: the
// page's Kafka clients panel (View.Kafka) for a view of shown (the world
// shown: the present, or a moment of the past; l.mu is held), and where a
// client bootstraps.
type clientsPanel interface {
	decorate(l *Live, v *View, shown *cluster.World)
	// bootstrap is broker 1's listener ("" while it has none).
	bootstrap() string
}

// replacedBy is what replaced the world shown.
type replacedBy int

// What can replace the world shown.
const (
	replacedByReset replacedBy = iota
	replacedByScenario
	replacedByLeave
	replacedByFork
)

// scriptLine is a terminal line that acted on the live world at StartMs,
// Count times in a row (the clock's runs of one length are one
// scriptLine); RunMs is how far each moved the clock (0: not a run).
type scriptLine struct {
	Line    string
	StartMs int64
	RunMs   int64
	Count   int
}

// InternalError is the newest internal error of the world shown (a bug of
// the simulation, never a mistake of the user's), with the commands that
// replay what led to it. The cluster records an internal error and goes
// on (cluster.World.InternalErrors); a world whose run itself failed
// stops, and only Reset gives a running one.
type InternalError struct {
	// TimeMs is the virtual time of the error.
	TimeMs int64  `json:"t"`
	Error  string `json:"error"`
	// Count counts the world's internal errors so far.
	Count int `json:"count"`
	// Stopped is set when the world cannot go on (its run failed).
	Stopped bool `json:"stopped,omitempty"`
	// Hint is the cluster's own replay hint (cluster.InternalError.Replay).
	Hint string `json:"hint,omitempty"`
	// Replay is a shell command that replays the world from its start
	// to now, or says why there is none.
	Replay string `json:"replay"`
}

// Update is what the page gets from /api/view and the stream: the View of
// the world shown and the session every tab follows.
type Update struct {
	View
	Session Session `json:"session"`
}

// Update returns the update for a page that shows f at time at (nil or
// not before now: the present): the view and the session. A past moment
// is rebuilt by the cluster's timeline (World.AtTime). The present's is
// the one every stream of f shares ([Live.Present]), its entities with
// their versions; the caller must not change it.
func (l *Live) Update(f Focus, at *int64) (Update, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.world()
	now := w.NowMs()
	if at == nil || *at >= now {
		e, err := l.present(f)
		if err != nil {
			return Update{}, err
		}
		return e.update, nil
	}
	pw, err := l.pastWorld(*at)
	if err != nil {
		return Update{}, err
	}
	v := BuildView(pw, f)
	v.NowMs, v.Past = now, true
	l.decorate(&v, pw)
	return Update{View: v, Session: l.session()}, nil
}

// ViewJSON returns the present's update (an Update) for a page that shows f, encoded,
// and the version it is of. Pages that show the same partition at the same
// version share one encoding.
func (l *Live) ViewJSON(f Focus) ([]byte, uint64, error) {
	e, v, err := l.Present(f)
	if err != nil {
		return nil, 0, err
	}
	return e.Bytes(), v, nil
}

// Present returns the present's update for a page that shows f, encoded
// (its entities with their versions), and the version of the state it is
// of: the update every stream of f shares ([Watch]).
func (l *Live) Present(f Focus) (*EncodedUpdate, uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, err := l.present(f)
	return e, l.version, err
}

// present is Present; l.mu is held.
func (l *Live) present(f Focus) (*EncodedUpdate, error) {
	if g := l.learnerGeneration(); g != l.learnerGen {
		// the learner's tests ended, or their files changed
		l.learnerGen = g
		l.bump()
	}
	if l.encoded == nil || l.cachedVersion != l.version {
		l.encoded, l.cachedVersion = map[Focus]*EncodedUpdate{}, l.version
	}
	if e, ok := l.encoded[f]; ok {
		return e, nil
	}
	v := BuildView(l.world(), f)
	l.decorate(&v, l.world())
	e, err := l.versions.Encode(&Update{View: v, Session: l.session()})
	if err != nil {
		return nil, err
	}
	l.encoded[f] = e
	return e, nil
}

// NewLive returns a Live showing the default world at time 0.
func NewLive() (*Live, error) {
	w, err := defaultworld.New(defaultworld.Seed)
	if err != nil {
		return nil, fmt.Errorf("web: default world: %w", err)
	}
	return &Live{w: w, scripted: true, sessionID: 1}, nil
}

// NewLiveConfig returns a Live showing the default world built from cfg
// at time 0, and again at each Reset: [defaultworld.Config] with bounds of
// its own, say, as a browser tab's (package web/tab).
func NewLiveConfig(cfg cluster.Config) (*Live, error) {
	w, err := defaultworld.NewWith(cfg)
	if err != nil {
		return nil, fmt.Errorf("web: default world: %w", err)
	}
	return &Live{w: w, scripted: true, sessionID: 1, cfg: &cfg}, nil
}

// NewLiveWallClock returns a Live as [NewLiveConfig] does (cfg nil: the
// default world's), whose worlds start Kafka's clock at wallClock's time
// (milliseconds since the Unix epoch) when each is built, at first and at
// each Reset: a real client stamps its records with the wall clock, and
// they then age beside the simulated ones. The world's own time
// ([cluster.World.NowMs]) still starts at 0.
func NewLiveWallClock(cfg *cluster.Config, wallClock func() int64) (*Live, error) {
	l := &Live{scripted: true, sessionID: 1, cfg: cfg, wallClock: wallClock}
	w, err := l.defaultWorld()
	if err != nil {
		return nil, fmt.Errorf("web: default world: %w", err)
	}
	l.w = w
	return l, nil
}

// defaultWorld builds the default world a Reset goes back to.
func (l *Live) defaultWorld() (*cluster.World, error) {
	cfg := defaultworld.Config(defaultworld.Seed)
	if l.cfg != nil {
		cfg = *l.cfg
	}
	if l.wallClock != nil {
		cfg.ClockStartMs = l.wallClock()
	}
	return defaultworld.NewWith(cfg)
}

// NewLiveWorld returns a Live showing w (tests use small worlds).
func NewLiveWorld(w *cluster.World) *Live { return &Live{w: w, sessionID: 1} }

// runWorld advances w by ms, through the test hook when set.
func (l *Live) runWorld(w *cluster.World, ms int64) error {
	if l.step != nil {
		return l.step(w, ms)
	}
	return w.RunFor(ms)
}

// Advance moves the live world's virtual time ms forward, unless it is
// paused, a scenario is playing (scenarios move time in their steps), a
// long run is in progress (RunFor) or the world's run failed before. An
// error of the run stops the world: the views show it (View.Internal)
// until Reset. A scenario's world is moved instead while its next step
// waits for an external Kafka client's records (scenarios.Run.Waiting)
// or a request of such a client waits in it (a fetch's long poll), so
// that the client is answered.
func (l *Live) Advance(ms int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.run != nil && !l.paused {
		if wt, _ := l.run.Waiting(); wt != nil || l.run.World().ExternalPending() > 0 || l.held != 0 {
			l.bump()
			err := l.runWorld(l.run.World(), ms)
			if wt, _ := l.run.Waiting(); wt == nil && l.held != 0 && err == nil {
				// the user's client has written the records a held step
				// waited for: it plays with the answer chosen
				_, err = l.playNext(max(l.held, 0), false)
			}
			return err
		}
	}
	if l.paused || l.run != nil || l.running > 0 || l.failure != nil && l.failed == l.w {
		return nil
	}
	l.bump()
	ms *= max(l.speed, 1)
	start := l.w.NowMs()
	err := l.runWorld(l.w, ms)
	l.recordRun(fmt.Sprintf("run %d", ms), start, ms)
	return l.checkFailure(l.w, err)
}

// recordRun adds a run of ms from start to the script; l.mu is held.
func (l *Live) recordRun(line string, start, ms int64) {
	if n := len(l.script); n > 0 && l.script[n-1].Line == line && l.script[n-1].RunMs == ms {
		l.script[n-1].Count++
		return
	}
	l.script = append(l.script, scriptLine{Line: line, StartMs: start, RunMs: ms, Count: 1})
}

// checkFailure records err, an error of a run of w, as what stopped w,
// and returns it; l.mu is held.
func (l *Live) checkFailure(w *cluster.World, err error) error {
	if err != nil && l.failed != w {
		l.failed, l.failure = w, err
	}
	return err
}

// MaxSpeed is the fastest the live clock may run: a simulated minute in
// three seconds.
const MaxSpeed = 20

// SetSpeed sets how many virtual milliseconds pass per Advance millisecond
// (1 to MaxSpeed).
func (l *Live) SetSpeed(x int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.speed = min(max(x, 1), MaxSpeed)
	l.bump()
}

// SetPaused pauses or resumes the live world's clock.
func (l *Live) SetPaused(p bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paused = p
	l.bump()
}

// View returns the view of the update for a page that shows f, at time
// at (nil: now): Live.Update without the session.
func (l *Live) View(f Focus, at *int64) (View, error) {
	u, err := l.Update(f, at)
	return u.View, err
}

// decorate adds to v what the Live knows beside the world shown, shown:
// the clock, the timeline's marks, the mode, the internal error, the Kafka
// clients (those shown had spoken by then) and the learner's code; l.mu is
// held.
func (l *Live) decorate(v *View, shown *cluster.World) {
	v.Paused = l.paused
	v.Speed = max(l.speed, 1)
	for _, m := range l.marks.of(l.world()) {
		m.Text = preview(m.Text, TextPreviewBytes)
		v.Marks = append(v.Marks, m)
	}
	v.StartMs = l.world().StartMs()
	if l.run != nil {
		v.Mode = "scenario"
	}
	v.Internal = l.internal()
	if l.kafka != nil {
		l.kafka.decorate(l, v, shown)
	} else {
		v.Kafka = noListeners()
	}
	v.Learner = l.learnerView()
}

// world returns the world shown; l.mu is held.
func (l *Live) world() *cluster.World {
	if l.run != nil {
		return l.run.World()
	}
	return l.w
}

// pastWorld rebuilds the world at time ms, reusing the last one rebuilt;
// l.mu is held.
func (l *Live) pastWorld(ms int64) (*cluster.World, error) {
	w := l.world()
	n := nextSeq(w)
	if l.past != nil && l.pastActions == n && l.pastMs == ms {
		return l.past, nil
	}
	pw, err := w.AtTime(ms)
	if err != nil {
		return nil, fmt.Errorf("web: timeline at %d ms: %w", ms, err)
	}
	l.past, l.pastActions, l.pastMs = pw, n, ms
	return pw, nil
}

// Fork is what acting from the past did: the world was rebuilt at AtMs and
// the DiscardedMs after it, up to the live world's now, were discarded.
type Fork struct {
	AtMs        int64 `json:"at"`
	DiscardedMs int64 `json:"discarded_ms"`
}

// Do runs fn on the world shown. With at set before now, fn runs on the
// world rebuilt at that moment, which replaces the live one only if fn
// succeeds: acting from the past forks a new future, and an action that
// fails there (stop 99) leaves the future as it was. Scenario worlds are
// not forked (their steps move them).
func (l *Live) Do(at *int64, fn func(w *cluster.World) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bump()
	if at != nil && l.run == nil && *at < l.w.NowMs() {
		fork, err := l.w.AtTime(*at)
		if err != nil {
			return fmt.Errorf("web: fork at %d ms: %w", *at, err)
		}
		start := fork.NowMs()
		if err := fn(fork); err != nil {
			return err
		}
		l.forked = &Fork{AtMs: start, DiscardedMs: l.w.NowMs() - start}
		l.w, l.past, l.replaced = fork, nil, replacedByFork
		l.script = cutScript(l.script, *at)
		l.entry = -1
		l.note(start, fork.NowMs()-start)
		return nil
	}
	w := l.world()
	from, start := nextSeq(w), w.NowMs()
	err := fn(w)
	if w == l.w && nextSeq(w) != from {
		l.note(start, w.NowMs()-start)
	}
	return err
}

// note records that the line being run acted on the live world at start,
// moving its clock by ms; l.mu is held. Something acting without a line
// leaves the script unable to replay the world.
func (l *Live) note(start, ms int64) {
	switch {
	case l.line == "":
		l.scripted = false
	case l.entry < 0:
		l.entry = len(l.script)
		l.script = append(l.script, scriptLine{Line: l.line, StartMs: start, Count: 1})
		fallthrough
	default:
		e := &l.script[l.entry]
		if e.RunMs += ms; e.RunMs > 0 && strings.HasPrefix(e.Line, "run ") {
			// a run cut short (by Reset or a scenario) replays as far
			// as it went
			e.Line = fmt.Sprintf("run %d", e.RunMs)
		}
	}
}

// cutScript returns the script of the world rebuilt at time at: the lines
// before it, a run that spans it cut there, as cluster.World.AtTime
// replays the actions.
func cutScript(script []scriptLine, at int64) []scriptLine {
	var out []scriptLine
	for _, e := range script {
		if e.RunMs == 0 {
			if e.StartMs > at {
				break
			}
			out = append(out, e)
			continue
		}
		end := e.StartMs + int64(e.Count)*e.RunMs
		if end <= at {
			out = append(out, e)
			continue
		}
		if whole := int((at - e.StartMs) / e.RunMs); whole > 0 {
			out = append(out, scriptLine{Line: e.Line, StartMs: e.StartMs, RunMs: e.RunMs, Count: whole})
		}
		start := e.StartMs + int64((at-e.StartMs)/e.RunMs)*e.RunMs
		if rest := at - start; rest > 0 {
			out = append(out, scriptLine{Line: fmt.Sprintf("run %d", rest), StartMs: start, RunMs: rest, Count: 1})
		}
		break
	}
	return out
}

// Exec runs one line of the page's terminal t (over l), one line at a time:
// a long run holds the next line back, not the views, and stops between
// two steps when ctx is done (the page that asked went away). The lines
// that act on the live world are kept, so that an internal error comes
// with the commands that replay it (View.Internal).
func (l *Live) Exec(ctx context.Context, t *Terminal, line string, at *int64, out io.Writer) error {
	_, err := l.ExecLine(ctx, t, line, at, out)
	return err
}

// ExecLine is Exec, also returning the fork the line made when it acted
// from the past (nil: none; a line that fails forks nothing). It prints
// what the fork discarded after the command's output.
func (l *Live) ExecLine(ctx context.Context, t *Terminal, line string, at *int64, out io.Writer) (*Fork, error) {
	l.execMu.Lock()
	defer l.execMu.Unlock()
	l.mu.Lock()
	// the line's words, quoted again where they must be, for the replay
	l.line, l.entry, l.ctx, l.forked = kafkatools.NormalLine(line), -1, ctx, nil
	l.mu.Unlock()
	err := t.Exec(line, at, out)
	l.mu.Lock()
	f := l.forked
	l.line, l.ctx, l.forked = "", nil, nil
	l.mu.Unlock()
	if f != nil {
		fmt.Fprintf(out, "(acting at t=%s discarded the %s after it: a new future starts there)\n", seconds(f.AtMs), seconds(f.DiscardedMs))
	}
	return f, err
}

// seconds prints ms as seconds, "42 s" or "1.5 s".
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
}

// SliceMs is the most simulated time one step of a long run moves while
// it holds the Live's lock: "run 3600000" is 3600 steps of a second
// (5-17 ms each in the default world on the development machine), and
// views, streams, Reset and the pause go on between them.
const SliceMs = 1000

// ErrRunInterrupted means a long run stopped before its end because the
// world shown was replaced (Reset, a scenario started or left) or the page
// that asked for it went away.
var ErrRunInterrupted = errors.New("web: run interrupted")

// RunFor moves the world shown ms forward in steps of at most SliceMs,
// releasing the lock between them, as Do would (with at before now it
// forks first); each sees the events of every step. The clock's Advance
// waits while a run is in progress.
func (l *Live) RunFor(at *int64, ms int64, each func(evs []cluster.Event)) error {
	l.mu.Lock()
	l.running++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.running--
		l.mu.Unlock()
	}()
	var w *cluster.World
	for done := int64(0); done < ms; {
		n := min(SliceMs, ms-done)
		err := l.Do(at, func(cw *cluster.World) error {
			if w != nil && cw != w {
				return fmt.Errorf("%w at t=%d after %d of %d ms: the world shown was replaced", ErrRunInterrupted, w.NowMs(), done, ms)
			}
			if l.ctx != nil && l.ctx.Err() != nil {
				return fmt.Errorf("%w at t=%d after %d of %d ms: %w", ErrRunInterrupted, cw.NowMs(), done, ms, context.Cause(l.ctx))
			}
			w = cw
			from := nextSeq(cw)
			err := l.runWorld(cw, n)
			each(eventsSince(cw, from))
			if err != nil {
				return l.checkFailure(cw, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		at, done = nil, done+n
		yieldSlice()
	}
	return nil
}

// Running says whether a long run is in progress (RunFor).
func (l *Live) Running() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running > 0
}

// runSliced is the terminal's run MS: a long run in steps (Live.RunFor),
// printing the brokers', controller's, groups' and replicas' events as
// act does.
func (t *Terminal) runSliced(at *int64, ms int64, out io.Writer) error {
	const max = 20
	n := 0
	first := true
	err := t.live.RunFor(at, ms, func(evs []cluster.Event) {
		for _, e := range quietRun(evs) {
			if e.Kind == cluster.EventMessage {
				continue
			}
			if e.Kind == cluster.EventAction && strings.HasPrefix(e.Text, "run ") {
				// the steps' own actions: the run shows as one
				if !first {
					continue
				}
				e.Text, first = fmt.Sprintf("run %d", ms), false
			}
			if n++; n <= max {
				fmt.Fprintln(out, eventLine(e))
			}
		}
	})
	if n > max {
		fmt.Fprintf(out, "... and %d more (type events)\n", n-max)
	}
	return err
}

// replayCommand is a shell command that replays the live world from its
// start (kafkalive shell runs the page's terminal on the same default
// world), or says why there is none; l.mu is held.
func (l *Live) replayCommand() string {
	if l.run != nil {
		return fmt.Sprintf("go run ./cmd/kafkalive play %s --auto   (the scenario's steps; commands typed during it are not replayed)", l.sc.Name)
	}
	if !l.scripted {
		return "none: this world is not the default one, or something acted on it outside the terminal"
	}
	var b strings.Builder
	b.WriteString("{ ")
	for _, e := range l.script {
		q := "'" + strings.ReplaceAll(e.Line, "'", `'\''`) + "'"
		if e.Count == 1 {
			fmt.Fprintf(&b, "echo %s; ", q)
		} else {
			fmt.Fprintf(&b, "for i in $(seq %d); do echo %s; done; ", e.Count, q)
		}
	}
	b.WriteString("} | go run ./cmd/kafkalive shell -q")
	return b.String()
}

// MaxReplayBytes bounds the replay command a view carries.
const MaxReplayBytes = 64 << 10

// InternalError returns the newest internal error of the world shown,
// nil if it has none.
func (l *Live) InternalError() *InternalError {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.internal()
}

// internal describes the newest internal error of the world shown; l.mu
// is held.
func (l *Live) internal() *InternalError {
	w := l.world()
	var ie *InternalError
	if errs := w.InternalErrors(); len(errs) > 0 {
		last := errs[len(errs)-1]
		ie = &InternalError{TimeMs: last.TimeMs, Error: last.Error, Count: w.InternalErrorCount(), Hint: last.Replay}
		if last.Broker != 0 {
			ie.Error += fmt.Sprintf(" (broker %d halted, as a broker whose log directory failed; start it again)", last.Broker)
		}
	}
	if l.failed == w && l.failure != nil {
		n := 1
		if ie != nil {
			n += ie.Count
		}
		ie = &InternalError{TimeMs: w.NowMs(), Error: l.failure.Error(), Count: n, Stopped: true}
	}
	if ie == nil {
		return nil
	}
	r := l.replayCommand()
	if len(r) > MaxReplayBytes {
		r = fmt.Sprintf("%s... (cut: the replay is %d bytes)", r[:MaxReplayBytes], len(r))
	}
	ie.Replay = r
	return ie
}

// bump records a change: a new version, and a wake-up for every stream
// waiting on Changed. The caller holds l.mu.
func (l *Live) bump() {
	l.version++
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}

// Changed returns a channel that is closed at the next change of state.
// Take it before reading Version, so that no change falls between the two.
func (l *Live) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.changed == nil {
		l.changed = make(chan struct{})
	}
	return l.changed
}

// Version returns a number that changes whenever the state may have.
func (l *Live) Version() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

// Reset goes back to a fresh default world, leaving any scenario.
func (l *Live) Reset() error {
	w, err := l.newWorld()
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w, l.run, l.sc, l.past, l.paused, l.replaced = w, nil, nil, nil, false, replacedByReset
	l.played, l.answers, l.held = nil, nil, 0
	l.script, l.scripted, l.entry = nil, true, -1
	l.failed, l.failure = nil, nil
	l.newSession()
	return nil
}

// Look runs fn on the world shown at time at (nil or not before now: the
// present), without changing it.
func (l *Live) Look(at *int64, fn func(w *cluster.World) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.world()
	if at != nil && *at < w.NowMs() {
		pw, err := l.pastWorld(*at)
		if err != nil {
			return err
		}
		w = pw
	}
	return fn(w)
}

// Brokers returns how many brokers the world shown has.
func (l *Live) Brokers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.world().Config().Brokers
}
