//go:build !js

package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Limits bound what a client of the page's HTTP server can hold: time
// to send a request, time to take an answer, idle connections and update
// streams. Each is set beside the nearest Kafka setting (the README's
// table of limits says the same); a zero field takes DefaultLimits'.
type Limits struct {
	// ReadHeaderTimeout bounds the time to send a request's headers,
	// ReadTimeout the whole request with its body (at most MaxBodyBytes).
	// Kafka's nearest: request.timeout.ms (30 s), the most a client waits
	// for a request's answer; a broker waits for a request's bytes until
	// connections.max.idle.ms.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	// WriteTimeout bounds the time from a request to the end of its
	// answer, but for the update stream (StreamWriteTimeout) and a
	// terminal line (ExecTimeout). Kafka's nearest: request.timeout.ms.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection that sends no request
	// for that long. Kafka's nearest: connections.max.idle.ms (10
	// minutes on a broker); a browser opens a new connection at no cost,
	// so the page's server closes sooner.
	IdleTimeout time.Duration
	// StreamWriteTimeout bounds the writing of each frame of an update
	// stream: a page that stops reading is dropped, while a stream itself
	// lasts as long as its page. Kafka's nearest: request.timeout.ms.
	StreamWriteTimeout time.Duration
	// ExecTimeout bounds a line typed in the page's terminal: a long run
	// is interrupted then (between two of its steps), and says so. Kafka's
	// nearest: default.api.timeout.ms (60 s), the admin tools' bound on a
	// command; a run of simulated hours takes minutes.
	ExecTimeout time.Duration
	// MaxStreams bounds the update streams open at once (a page each):
	// one more is refused with 503 and why. Kafka's nearest:
	// max.connections.per.ip and max.connections (unbounded by default).
	MaxStreams int
}

// DefaultLimits are the page's server's limits.
var DefaultLimits = Limits{
	ReadHeaderTimeout:  10 * time.Second,
	ReadTimeout:        30 * time.Second,
	WriteTimeout:       30 * time.Second,
	IdleTimeout:        2 * time.Minute,
	StreamWriteTimeout: 30 * time.Second,
	ExecTimeout:        10 * time.Minute,
	MaxStreams:         32,
}

// limits returns s's limits, DefaultLimits' where s sets none.
func (s *Server) limits() Limits {
	l, d := s.Limits, DefaultLimits
	pick := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.ReadHeaderTimeout, d.ReadHeaderTimeout)
	pick(&l.ReadTimeout, d.ReadTimeout)
	pick(&l.WriteTimeout, d.WriteTimeout)
	pick(&l.IdleTimeout, d.IdleTimeout)
	pick(&l.StreamWriteTimeout, d.StreamWriteTimeout)
	pick(&l.ExecTimeout, d.ExecTimeout)
	if l.MaxStreams <= 0 {
		l.MaxStreams = d.MaxStreams
	}
	return l
}

// HTTPServer returns an http.Server that serves s with s's limits.
func (s *Server) HTTPServer() *http.Server {
	l := s.limits()
	return &http.Server{Handler: s, ReadHeaderTimeout: l.ReadHeaderTimeout, ReadTimeout: l.ReadTimeout,
		WriteTimeout: l.WriteTimeout, IdleTimeout: l.IdleTimeout}
}

// ErrTooManyStreams means a page asked for an update stream while
// Limits.MaxStreams were open.
var ErrTooManyStreams = errors.New("web: too many update streams")

// openStream counts a new update stream in, unless MaxStreams are open:
// then it answers 503 with why and how to get one, and returns false.
func (s *Server) openStream(w http.ResponseWriter) bool {
	max := s.limits().MaxStreams
	s.streamsMu.Lock()
	ok := s.streams < max
	if ok {
		s.streams++
	}
	s.streamsMu.Unlock()
	if !ok {
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("%v: %d of %d in use, one a page (kafkalive serve --max-streams %d): close a tab of the page, or start kafkalive with more", ErrTooManyStreams, max, max, max), http.StatusServiceUnavailable)
	}
	return ok
}

// closeStream counts an update stream out.
func (s *Server) closeStream() {
	s.streamsMu.Lock()
	s.streams--
	s.streamsMu.Unlock()
}
