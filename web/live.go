package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/kafkalive/kafkalive/cluster"
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
	run  *scenarios.Run
	sc   *scenarios.Scenario
	done bool
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
	// that pages showing the same partition share one State.
	encoded       map[Focus][]byte
	cachedVersion uint64
	// marks are the timeline's ticks of the world shown.
	marks marks
}

// ViewJSON returns the present's update for a page that shows f, encoded,
// and the version it is of. Pages that show the same partition at the same
// version share one encoding.
func (l *Live) ViewJSON(f Focus) ([]byte, uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.encoded == nil || l.cachedVersion != l.version {
		l.encoded, l.cachedVersion = map[Focus][]byte{}, l.version
	}
	if b, ok := l.encoded[f]; ok {
		return b, l.version, nil
	}
	v := BuildView(l.world(), f)
	l.decorate(&v)
	b, err := json.Marshal(v)
	if err != nil {
		return nil, 0, err
	}
	l.encoded[f] = b
	return b, l.version, nil
}

// NewLive returns a Live showing the default world at time 0.
func NewLive() (*Live, error) {
	w, err := NewDefaultWorld()
	if err != nil {
		return nil, fmt.Errorf("web: default world: %w", err)
	}
	return &Live{w: w}, nil
}

// NewLiveWorld returns a Live showing w (tests use small worlds).
func NewLiveWorld(w *cluster.World) *Live { return &Live{w: w} }

// Advance moves the live world's virtual time ms forward, unless it is
// paused or a scenario is playing (scenarios move time in their steps).
func (l *Live) Advance(ms int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.paused || l.run != nil {
		return nil
	}
	l.bump()
	return l.w.RunFor(ms * max(l.speed, 1))
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

// View returns the update for a page that shows f, at time at (nil: now).
// A past moment is rebuilt by the cluster's timeline (World.AtTime).
func (l *Live) View(f Focus, at *int64) (View, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.world()
	now := w.NowMs()
	if at != nil && *at < now {
		pw, err := l.pastWorld(*at)
		if err != nil {
			return View{}, err
		}
		v := BuildView(pw, f)
		v.NowMs, v.Past = now, true
		l.decorate(&v)
		return v, nil
	}
	v := BuildView(w, f)
	l.decorate(&v)
	return v, nil
}

func (l *Live) decorate(v *View) {
	v.Paused = l.paused
	v.Speed = max(l.speed, 1)
	v.Marks = l.marks.of(l.world())
	v.StartMs = l.world().StartMs()
	if l.run != nil {
		v.Mode = "scenario"
	}
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

// Do runs fn on the world shown. With at set before now, the world is first
// rebuilt at that moment and replaces the live one: acting from the past
// forks a new future. Scenario worlds are not forked (their steps move
// them).
func (l *Live) Do(at *int64, fn func(w *cluster.World) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bump()
	if at != nil && l.run == nil && *at < l.w.NowMs() {
		fork, err := l.w.AtTime(*at)
		if err != nil {
			return fmt.Errorf("web: fork at %d ms: %w", *at, err)
		}
		l.w = fork
		l.past = nil
	}
	return fn(l.world())
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
	w, err := NewDefaultWorld()
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w, l.run, l.sc, l.past, l.paused = w, nil, nil, nil, false
	l.bump()
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
