package observed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/internal/kafkatools/observedtools"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
)

// Server serves the page of a real cluster an observer watches
// (kafkalive observe --addr): the simulated cluster's page itself
// (index.html and its panels), fed from the observer's samples ([Source])
// through the same calls (/api/view, /api/stream, /api/exec), marked
// read-only. Nothing on it acts on the cluster: the terminal runs Kafka's
// read-only tools on the sample shown, and every call that would act
// (pause, reset, speed, the scenarios, a command that changes the cluster)
// is refused with 403 and why ([ErrReadOnly]). It answers the page itself
// only, as web.Server does ([web.Admit]).
type Server struct {
	Observer *observe.Observer
	Source   *Source
	// Hosts are further HOST:PORT names a request's Host may give.
	Hosts []string
	// Notes holds the notes' Markdown files the page's Notes tab reads
	// (nil: none), as the simulated page's server serves them.
	Notes fs.FS
	// Interval is the least time between two frames of a stream
	// (default web.UpdateInterval: ten a second).
	Interval time.Duration
	// MaxStreams bounds the update streams open at once (default
	// DefaultMaxStreams).
	MaxStreams int
	mux        *http.ServeMux
	index      []byte

	streamsMu sync.Mutex
	streams   int
}

// ErrReadOnly refuses, on an observed cluster's page, a request that
// would act.
var ErrReadOnly = errors.New("web: this page observes a real cluster and only looks: nothing here acts on it")

// DefaultMaxStreams bounds the update streams an observed cluster's page
// serves at once.
const DefaultMaxStreams = 32

// Marker is the tag the page's index.html carries when it shows an
// observed cluster: the page hides what acts before its first update.
const Marker = `<meta name="kafkalive-world" content="observed">`

// NewServer returns the page of what o observes.
func NewServer(o *observe.Observer) *Server {
	s := &Server{Observer: o, Source: NewSource(o), Interval: web.UpdateInterval, MaxStreams: DefaultMaxStreams, mux: http.NewServeMux()}
	index, err := fs.ReadFile(web.StaticFS(), "index.html")
	if err != nil {
		panic(fmt.Sprintf("web/observed: the page's index.html built into the binary: %v", err)) // our own bug
	}
	s.index = bytes.Replace(index, []byte("<head>"), []byte("<head>\n"+Marker), 1)
	files := http.FileServerFS(web.StaticFS())
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /index.html", s.page)
	s.mux.Handle("GET /observe.html", http.RedirectHandler("/", http.StatusMovedPermanently))
	s.mux.Handle("GET /style.css", files)
	s.mux.Handle("GET /js/", files)
	s.mux.HandleFunc("GET /api/view", s.view)
	s.mux.HandleFunc("GET /api/stream", s.stream)
	s.mux.HandleFunc("POST /api/exec", s.exec)
	s.mux.HandleFunc("GET /api/scenarios", emptyList)
	s.mux.HandleFunc("GET /api/notes", s.notes)
	s.mux.HandleFunc("GET /api/note", s.notes)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, ErrReadOnly.Error(), http.StatusForbidden)
	})
	return s
}

// ServeHTTP admits a request as web.Server does, then serves it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	web.SetHeaders(w.Header())
	if code, err := web.Admit(r, s.Hosts); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// page serves the shared page, marked as an observed cluster's.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(s.index)
}

// notes answers the notes (GET /api/notes, /api/note?name=) as the
// simulated page's server does: they read nothing of the cluster.
func (s *Server) notes(w http.ResponseWriter, r *http.Request) {
	reply := (&web.API{Notes: s.Notes}).Serve(web.Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Ctx: r.Context()})
	if reply.ContentType != "" {
		w.Header().Set("Content-Type", reply.ContentType)
	}
	w.WriteHeader(reply.Status)
	w.Write(reply.Body)
}

// emptyList answers []: an observed cluster has no scenarios.
func emptyList(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("[]"))
}

// atOf reads ?at=MS, the moment of the timeline shown (absent: the
// newest sample).
func atOf(r *http.Request) (*int64, error) {
	v := r.URL.Query().Get("at")
	if v == "" {
		return nil, nil
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms < 0 {
		return nil, fmt.Errorf("web: at takes a moment of the timeline in milliseconds: %q", v)
	}
	return &ms, nil
}

// view answers GET /api/view: the update of the sample at ?at=MS (the
// newest without) for the focus the query names (web.FocusOf).
func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	at, err := atOf(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f, err := web.FocusOf(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.firstPoll(r.Context(), firstPollWait)
	var b []byte
	if at == nil {
		var e *web.EncodedUpdate
		if e, _, err = s.Source.Present(f); err == nil {
			b = e.Bytes()
		}
	} else {
		var u web.Update
		if u, err = s.Source.Update(f, at); err == nil {
			b, err = json.Marshal(u)
		}
	}
	if errors.Is(err, errNoPoll) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// stream sends the update stream of the page that shows the query's
// focus as Server-Sent Events, as the simulated page's server does: the
// whole update first, then at each sample a patch of what changed, at
// most one every Interval.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	f, err := web.FocusOf(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !s.openStream() {
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("web: %d update streams are open, as many as this page serves", s.maxStreams()), http.StatusServiceUnavailable)
		return
	}
	defer s.closeStream()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	ctx := r.Context()
	// before the first poll there is nothing to send: wait for it
	if !s.firstPoll(ctx, 0) {
		return
	}
	web.Watch(ctx, s.Source, f, s.gap, func(b []byte) error {
		rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if _, err := fmt.Fprintf(w, "event: frame\ndata: %s\n\n", b); err != nil {
			return err
		}
		return rc.Flush()
	})
}

// firstPollWait is how long a view asked before the observer's first poll
// ended waits for it (a page opened as kafkalive observe starts).
const firstPollWait = 15 * time.Second

// firstPoll waits until the observer has a sample, at most wait (0: until
// ctx is done); false if it has none.
func (s *Server) firstPoll(ctx context.Context, wait time.Duration) bool {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for s.Observer.Latest() == nil {
		select {
		case <-ctx.Done():
			return false
		case <-timeout:
			return false
		case <-s.Observer.Changed():
		}
	}
	return true
}

func (s *Server) gap() time.Duration {
	if s.Interval <= 0 {
		return web.UpdateInterval
	}
	return s.Interval
}

func (s *Server) maxStreams() int {
	if s.MaxStreams <= 0 {
		return DefaultMaxStreams
	}
	return s.MaxStreams
}

func (s *Server) openStream() bool {
	s.streamsMu.Lock()
	defer s.streamsMu.Unlock()
	if s.streams >= s.maxStreams() {
		return false
	}
	s.streams++
	return true
}

func (s *Server) closeStream() {
	s.streamsMu.Lock()
	s.streams--
	s.streamsMu.Unlock()
}

// exec answers POST /api/exec: one of Kafka's read-only tools on the
// sample shown; a command that would act is refused (403, and why) and
// sent nowhere.
func (s *Server) exec(w http.ResponseWriter, r *http.Request) {
	var req web.ExecRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, web.MaxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		http.Error(w, "web: the body is {\"line\": \"kafka-topics --describe\", \"at\": MS}: "+err.Error(), http.StatusBadRequest)
		return
	}
	status, res := s.run(r.Context(), req)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(res)
}

// run runs one terminal line on the sample at req.At.
func (s *Server) run(_ context.Context, req web.ExecRequest) (int, web.ExecResult) {
	words, err := kafkatools.SplitLine(req.Line)
	if err != nil {
		return http.StatusOK, web.ExecResult{Output: err.Error() + "\n"}
	}
	if len(words) == 0 {
		return http.StatusOK, web.ExecResult{OK: true}
	}
	if words[0] == "help" {
		var out strings.Builder
		out.WriteString("Kafka's read-only tools, on the sample shown (nothing here changes the cluster):\n")
		for _, t := range observedtools.Tools() {
			out.WriteString(t.Usage + "\n    " + t.Help + "\n")
		}
		return http.StatusOK, web.ExecResult{Output: out.String(), OK: true}
	}
	var shown *observe.Sample
	s.Observer.Look(func(t *observe.Timeline) {
		if m, ok := momentAt(t, req.At); ok {
			shown = m.shown
		}
	})
	if shown == nil {
		return http.StatusServiceUnavailable, web.ExecResult{Output: errNoPoll.Error() + "\n"}
	}
	var out strings.Builder
	err = observedtools.Run(shown, words, &out)
	var printed kafkatools.Printed
	switch {
	case err == nil:
		return http.StatusOK, web.ExecResult{Output: out.String(), OK: true}
	case errors.Is(err, observedtools.ErrReadOnly):
		return http.StatusForbidden, web.ExecResult{Output: out.String() + err.Error() + "\n"}
	case errors.As(err, &printed):
		return http.StatusOK, web.ExecResult{Output: out.String()}
	case errors.Is(err, kafkatools.ErrUsage):
		return http.StatusOK, web.ExecResult{Output: out.String() + err.Error() + "; type help for the tools\n"}
	}
	return http.StatusOK, web.ExecResult{Output: out.String() + err.Error() + "\n"}
}
