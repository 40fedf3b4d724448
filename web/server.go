package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kafkalive/kafkalive/scenarios"
)

//go:embed static
var staticFS embed.FS

// UpdateInterval is how often the live world advances and the page gets an
// update: ten a second.
const UpdateInterval = 100 * time.Millisecond

// Server serves the page and its API over one Live, to the page itself
// only (see "Who may drive the cluster" in the package documentation):
// every request must name the server's own address in its Host, none may
// come from another site, and a request that changes the world is a POST
// with a JSON body.
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
	// Hosts are further HOST:PORT names a request's Host may give (serve
	// adds its --addr). The address the connection came in on, and
	// localhost, 127.0.0.1 and [::1] with its port, always may.
	Hosts []string
	// Log, when set, gets each internal error that stops the world.
	Log io.Writer
	mux *http.ServeMux
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

// ServeHTTP serves the page and the API to the page itself: it refuses a
// foreign Host with 421 (DNS rebinding), a request from another site with
// 403, and a state-changing request that is not a JSON POST without a
// query string with 415 or 400, before any route runs.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if code, err := s.admit(r); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Run advances the live world at wall-clock pace until ctx is done: the one
// goroutine that moves the simulated time. An internal error stops
// nothing silently: the page shows it (View.Internal) and Log gets it; the
// world goes on after one it recorded, a world whose run failed stops, and
// after Reset the new world runs.
func (s *Server) Run(ctx context.Context) error {
	if s.Speed > 1 {
		s.Live.SetSpeed(s.Speed)
	}
	tick := time.NewTicker(s.Interval)
	defer tick.Stop()
	reported := 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
			s.Live.Advance(s.Interval.Milliseconds()) // an error shows as the view's Internal
			ie := s.Live.InternalError()
			switch {
			case ie == nil:
				reported = 0
			case ie.Count != reported:
				reported = ie.Count
				if s.Log != nil {
					what := "the world goes on"
					if ie.Stopped {
						what = "the world stopped; Reset starts a new one"
					}
					fmt.Fprintf(s.Log, "kafkalive: internal error at t=%d ms (%s): %s\nreplay: %s\n", ie.TimeMs, what, ie.Error, ie.Replay)
				}
			}
		}
	}
}

// The reasons a request is refused before any route runs.
var (
	// ErrForeignHost means a request's Host is not an address of the
	// server: a page of another name that resolves to it (DNS rebinding).
	ErrForeignHost = errors.New("web: Host is not this server's address")
	// ErrCrossSite means a request's Origin or Sec-Fetch-Site names
	// another site: a foreign page tried to drive or read the cluster.
	ErrCrossSite = errors.New("web: request from another site")
	// ErrNotJSON means a state-changing request's body is not
	// Content-Type application/json (which no page of another site can
	// send without a CORS preflight, and this server answers none).
	ErrNotJSON = errors.New("web: a state-changing request takes a JSON body (Content-Type: application/json)")
	// ErrQueryString means a state-changing request carried a query
	// string: its arguments go in the JSON body.
	ErrQueryString = errors.New("web: a state-changing request takes no query string")
	// ErrBadBody means a JSON body did not decode into the route's
	// arguments.
	ErrBadBody = errors.New("web: bad JSON body")
)

// MaxBodyBytes bounds a request's body (a terminal line with a big
// value; larger bodies get 413).
const MaxBodyBytes = 16 << 20

// admit checks a request before any route runs, returning the status of
// its refusal.
func (s *Server) admit(r *http.Request) (int, error) {
	if !s.hostAllowed(r) {
		return http.StatusMisdirectedRequest, fmt.Errorf("%w: %q (open the address kafkalive printed)", ErrForeignHost, r.Host)
	}
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, ownOrigin(r)) {
		return http.StatusForbidden, fmt.Errorf("%w: Origin %q", ErrCrossSite, o)
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none": // none: the user typed the address or opened a bookmark
	default:
		return http.StatusForbidden, fmt.Errorf("%w: Sec-Fetch-Site %q", ErrCrossSite, site)
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return 0, nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return http.StatusUnsupportedMediaType, fmt.Errorf("%w: %s %s with %q", ErrNotJSON, r.Method, r.URL.Path, r.Header.Get("Content-Type"))
	}
	if r.URL.RawQuery != "" {
		return http.StatusBadRequest, fmt.Errorf("%w: %s %s?%s", ErrQueryString, r.Method, r.URL.Path, r.URL.RawQuery)
	}
	return 0, nil
}

// ownOrigin is the origin of the page this server serves at r.Host.
func ownOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// hostAllowed says whether r's Host is an address of the server: the
// address the connection came in on, localhost, 127.0.0.1 or [::1] with its
// port, or one of s.Hosts.
func (s *Server) hostAllowed(r *http.Request) bool {
	host := strings.ToLower(r.Host)
	for _, h := range s.Hosts {
		if host == strings.ToLower(h) {
			return true
		}
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	_, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	if host == strings.ToLower(local.String()) {
		return true
	}
	for _, n := range []string{"localhost", "127.0.0.1", "[::1]"} {
		if host == n+":"+port || port == "80" && host == n {
			return true
		}
	}
	return false
}

// decodeBody decodes r's JSON body into v: one JSON object of the route's
// fields, nothing else.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) (int, error) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return http.StatusRequestEntityTooLarge, fmt.Errorf("%w: %s: over %d bytes", ErrBadBody, r.URL.Path, MaxBodyBytes)
		}
		return http.StatusBadRequest, fmt.Errorf("%w: %s: %v", ErrBadBody, r.URL.Path, err)
	}
	return 0, nil
}

// body decodes r's JSON body into v, answering the error itself; it says
// whether the route goes on.
func body(w http.ResponseWriter, r *http.Request, v any) bool {
	if code, err := decodeBody(w, r, v); err != nil {
		http.Error(w, err.Error(), code)
		return false
	}
	return true
}

// focusOf reads ?topic=&partition= (default: orders-0), and the record
// whose journey the page follows, &offset=&value= (none without a value,
// or with an offset that is not a number).
func focusOf(r *http.Request) Focus {
	q := r.URL.Query()
	f := Focus{Topic: q.Get("topic"), Partition: 0}
	if f.Topic == "" {
		f.Topic = "orders"
	}
	if p, err := strconv.ParseInt(q.Get("partition"), 10, 32); err == nil {
		f.Partition = int32(p)
	}
	if o, err := strconv.ParseInt(q.Get("offset"), 10, 64); err == nil && o >= 0 && q.Get("value") != "" {
		f.Offset, f.Value = o, preview(q.Get("value"), PreviewBytes)
	}
	return f
}

// errAt means a moment of the timeline was not a time in milliseconds.
var errAt = errors.New("at: want a time in milliseconds")

// atOf reads ?at=MS, the moment of the timeline shown (absent: now).
func atOf(r *http.Request) (*int64, error) {
	s := r.URL.Query().Get("at")
	if s == "" {
		return nil, nil
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms < 0 {
		return nil, errAt
	}
	return &ms, nil
}

func (s *Server) handleView(w http.ResponseWriter, r *http.Request) {
	at, err := atOf(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	v, err := s.Live.Update(focusOf(r), at)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, v)
}

// execRequest is a terminal line typed on the page, at the moment of the
// timeline shown (absent: now).
type execRequest struct {
	Line string `json:"line"`
	At   *int64 `json:"at,omitempty"`
}

// execResult is what a terminal command printed, and the fork it made
// when it acted from the past.
type execResult struct {
	Output string `json:"output"`
	OK     bool   `json:"ok"`
	Forked *Fork  `json:"forked,omitempty"`
}

func (s *Server) handleExec(w http.ResponseWriter, r *http.Request) {
	var req execRequest
	if !body(w, r, &req) {
		return
	}
	if req.At != nil && *req.At < 0 {
		http.Error(w, errAt.Error(), http.StatusBadRequest)
		return
	}
	var out bytes.Buffer
	f, err := s.Live.ExecLine(r.Context(), s.Term, req.Line, req.At, &out)
	writeJSON(w, execResult{Output: out.String(), OK: err == nil, Forked: f})
}

func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Paused bool `json:"paused"`
	}
	if !body(w, r, &req) {
		return
	}
	s.Live.SetPaused(req.Paused)
	w.WriteHeader(http.StatusNoContent)
}

// handleSpeed sets the live clock's speed ({"speed": 1..MaxSpeed}).
func (s *Server) handleSpeed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Speed int64 `json:"speed"`
	}
	if !body(w, r, &req) {
		return
	}
	if req.Speed < 1 || req.Speed > MaxSpeed {
		http.Error(w, "speed: want 1 to "+strconv.Itoa(MaxSpeed), http.StatusBadRequest)
		return
	}
	s.Live.SetSpeed(req.Speed)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleReset(w http.ResponseWriter, r *http.Request) {
	if !body(w, r, &struct{}{}) {
		return
	}
	if err := s.Live.Reset(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleScenarios(w http.ResponseWriter, r *http.Request) {
	list, err := ListScenarios()
	if err == nil {
		var mine []ScenarioInfo
		mine, err = s.Live.learnerScenarios()
		list = append(mine, list...)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, list)
}

// startRequest starts a scenario, at a step with the answers chosen (a
// reload's URL) or at its beginning.
type startRequest struct {
	Name    string `json:"name"`
	Step    int    `json:"step,omitempty"`
	Answers []int  `json:"answers,omitempty"`
}

// sessionError is a scenario request refused, with the session the page
// follows instead.
type sessionError struct {
	Error   string  `json:"error"`
	Session Session `json:"session"`
}

func (s *Server) handleScenarioStart(w http.ResponseWriter, r *http.Request) {
	var req startRequest
	if !body(w, r, &req) {
		return
	}
	v, err := s.Live.StartScenario(req.Name, req.Step, req.Answers)
	switch {
	case errors.Is(err, ErrNoSuchScenario):
		writeJSONStatus(w, http.StatusNotFound, sessionError{Error: err.Error(), Session: s.Live.Session()})
	case err != nil:
		writeJSONStatus(w, http.StatusBadRequest, sessionError{Error: err.Error(), Session: s.Live.Session()})
	default:
		writeJSON(w, v)
	}
}

// handleScenarioStep plays the next step ({"session": ID, "step": N,
// "answer": A}). A request for a session or step that is not the
// server's gets 409 with the server's session, which the page then shows.
func (s *Server) handleScenarioStep(w http.ResponseWriter, r *http.Request) {
	var req StepRequest
	if !body(w, r, &req) {
		return
	}
	v, err := s.Live.PlayStep(req)
	switch {
	case errors.Is(err, ErrStaleSession), errors.Is(err, ErrNoScenario), errors.Is(err, scenarios.ErrWaiting):
		writeJSONStatus(w, http.StatusConflict, sessionError{Error: err.Error(), Session: v})
	case errors.Is(err, ErrBadAnswer):
		writeJSONStatus(w, http.StatusBadRequest, sessionError{Error: err.Error(), Session: v})
	case err != nil:
		writeJSONStatus(w, http.StatusInternalServerError, sessionError{Error: err.Error(), Session: v})
	default:
		writeJSON(w, v)
	}
}

// handleScenarioLeave goes back to the live world and answers the new
// session.
func (s *Server) handleScenarioLeave(w http.ResponseWriter, r *http.Request) {
	if !body(w, r, &struct{}{}) {
		return
	}
	writeJSON(w, s.Live.LeaveScenario())
}

func writeJSON(w http.ResponseWriter, v any) { writeJSONStatus(w, http.StatusOK, v) }

// writeJSONStatus answers v as JSON with the status code.
func writeJSONStatus(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}
