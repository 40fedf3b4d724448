package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strconv"
	"time"
)

//go:embed static
var staticFS embed.FS

// UpdateInterval is how often the live world advances and the page gets an
// update: ten a second.
const UpdateInterval = 100 * time.Millisecond

// Server serves the page and its API over one Live.
type Server struct {
	Live *Live
	Term *Terminal
	// Notes holds the notes' Markdown files (nil: none).
	Notes fs.FS
	// Interval is the update interval (default UpdateInterval).
	Interval time.Duration
	// Speed, when above 1, is the clock's speed Run starts with (virtual
	// milliseconds per wall-clock millisecond; the page can change it).
	Speed int64
	mux   *http.ServeMux
}

// NewServer returns a server over l with the terminal t.
func NewServer(l *Live, t *Terminal, notes fs.FS) *Server {
	s := &Server{Live: l, Term: t, Notes: notes, Interval: UpdateInterval, Speed: 1, mux: http.NewServeMux()}
	static, _ := fs.Sub(staticFS, "static")
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/view", s.handleView)
	s.mux.HandleFunc("GET /api/stream", s.handleStream)
	s.mux.HandleFunc("POST /api/exec", s.handleExec)
	s.mux.HandleFunc("POST /api/pause", s.handlePause)
	s.mux.HandleFunc("POST /api/reset", s.handleReset)
	s.mux.HandleFunc("POST /api/speed", s.handleSpeed)
	s.mux.HandleFunc("GET /api/scenarios", s.handleScenarios)
	s.mux.HandleFunc("POST /api/scenario/start", s.handleScenarioStart)
	s.mux.HandleFunc("POST /api/scenario/step", s.handleScenarioStep)
	s.mux.HandleFunc("POST /api/scenario/leave", s.handleScenarioLeave)
	s.mux.HandleFunc("GET /api/notes", s.handleNotes)
	s.mux.HandleFunc("GET /api/note", s.handleNote)
	return s
}

// ServeHTTP serves the page and the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Run advances the live world at wall-clock pace until ctx is done: the one
// goroutine that moves the simulated time.
func (s *Server) Run(ctx context.Context) error {
	if s.Speed > 1 {
		s.Live.SetSpeed(s.Speed)
	}
	tick := time.NewTicker(s.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			if err := s.Live.Advance(s.Interval.Milliseconds()); err != nil {
				return err
			}
		}
	}
}

// focusOf reads ?topic=&partition= (default: orders-0).
func focusOf(r *http.Request) Focus {
	f := Focus{Topic: r.FormValue("topic"), Partition: 0}
	if f.Topic == "" {
		f.Topic = "orders"
	}
	if p, err := strconv.ParseInt(r.FormValue("partition"), 10, 32); err == nil {
		f.Partition = int32(p)
	}
	return f
}

// atOf reads ?at=MS, the moment of the timeline shown (absent: now).
func atOf(r *http.Request) (*int64, error) {
	s := r.FormValue("at")
	if s == "" {
		return nil, nil
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms < 0 {
		return nil, errors.New("at: want a time in milliseconds")
	}
	return &ms, nil
}

func (s *Server) handleView(w http.ResponseWriter, r *http.Request) {
	at, err := atOf(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	v, err := s.Live.View(focusOf(r), at)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, v)
}

// execResult is what a terminal command printed.
type execResult struct {
	Output string `json:"output"`
	OK     bool   `json:"ok"`
}

func (s *Server) handleExec(w http.ResponseWriter, r *http.Request) {
	at, err := atOf(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var out bytes.Buffer
	err = s.Term.Exec(r.FormValue("line"), at, &out)
	writeJSON(w, execResult{Output: out.String(), OK: err == nil})
}

func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	s.Live.SetPaused(r.FormValue("paused") == "true")
	w.WriteHeader(http.StatusNoContent)
}

// handleSpeed sets the live clock's speed (?speed=1..MaxSpeed).
func (s *Server) handleSpeed(w http.ResponseWriter, r *http.Request) {
	x, err := strconv.ParseInt(r.FormValue("speed"), 10, 64)
	if err != nil || x < 1 || x > MaxSpeed {
		http.Error(w, "speed: want 1 to "+strconv.Itoa(MaxSpeed), http.StatusBadRequest)
		return
	}
	s.Live.SetSpeed(x)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	if err := s.Live.Reset(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleScenarios(w http.ResponseWriter, r *http.Request) {
	list, err := ListScenarios()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, list)
}

func (s *Server) handleScenarioStart(w http.ResponseWriter, r *http.Request) {
	v, err := s.Live.StartScenario(r.FormValue("name"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	writeJSON(w, v)
}

func (s *Server) handleScenarioStep(w http.ResponseWriter, r *http.Request) {
	v, err := s.Live.PlayStep()
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	writeJSON(w, v)
}

func (s *Server) handleScenarioLeave(w http.ResponseWriter, r *http.Request) {
	s.Live.LeaveScenario()
	w.WriteHeader(http.StatusNoContent)
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}
