package observed

import (
	"errors"
	"sync"

	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
)

// Source feeds the shared page's update stream ([web.Watch]) from an
// observer: its state changes at each sample, and the present's update of
// a focus is built from the newest sample, encoded once per focus and
// sample for every stream that shows it.
type Source struct {
	o *observe.Observer

	mu       sync.Mutex
	versions web.Versions
	// cached are the present's updates encoded at sample cachedSeq.
	cachedSeq uint64
	cached    map[web.Focus]*web.EncodedUpdate
}

// NewSource returns the update source of what o observes.
func NewSource(o *observe.Observer) *Source { return &Source{o: o} }

// maxCachedFocuses bounds the encodings a sample keeps, one a focus:
// pages asking for ever new focuses (a script) make it start over, not
// grow.
const maxCachedFocuses = 64

// errNoPoll answers a view asked before the observer's first poll ended.
var errNoPoll = errors.New("web: the observer has not finished its first poll yet")

// Changed implements web.Source: closed at the next sample.
func (s *Source) Changed() <-chan struct{} { return s.o.Changed() }

// Version implements web.Source: the newest sample's number (0: none).
func (s *Source) Version() uint64 {
	if l := s.o.Latest(); l != nil {
		return l.Seq
	}
	return 0
}

// Present implements web.Source: the newest sample's update for f.
func (s *Source) Present(f web.Focus) (*web.EncodedUpdate, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var e *web.EncodedUpdate
	var seq uint64
	var err error
	s.o.Look(func(t *observe.Timeline) {
		m, ok := momentAt(t, nil)
		if !ok {
			err = errNoPoll
			return
		}
		seq = m.shown.Seq
		if s.cachedSeq != seq || s.cached == nil || len(s.cached) >= maxCachedFocuses {
			s.cachedSeq, s.cached = seq, map[web.Focus]*web.EncodedUpdate{}
		}
		if e = s.cached[f]; e != nil {
			return
		}
		u := web.Update{View: buildView(m, f)}
		if e, err = s.versions.Encode(&u); err == nil {
			s.cached[f] = e
		}
	})
	return e, seq, err
}

// Update is the update for a page that shows f at timeline time at (nil:
// the newest sample).
func (s *Source) Update(f web.Focus, at *int64) (web.Update, error) {
	var u web.Update
	var ok bool
	s.o.Look(func(t *observe.Timeline) {
		var m moment
		if m, ok = momentAt(t, at); ok {
			u = web.Update{View: buildView(m, f)}
		}
	})
	if !ok {
		return web.Update{}, errNoPoll
	}
	return u, nil
}
