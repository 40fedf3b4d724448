//go:build !js

package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

//go:embed static
var staticFS embed.FS

// StaticFS returns the page's files: index.html, its scripts and styles,
// and the Web Worker and service worker of the static site.
func StaticFS() fs.FS {
	static, _ := fs.Sub(staticFS, "static")
	return static
}

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
	// Limits bound what a client can hold (zero fields: DefaultLimits);
	// HTTPServer makes the http.Server that keeps them.
	Limits Limits
	mux    *http.ServeMux
	// streams counts the update streams open (Limits.MaxStreams).
	streamsMu sync.Mutex
	streams   int
}

// NewServer returns a server over l with the terminal t.
func NewServer(l *Live, t *Terminal, notes fs.FS) *Server {
	s := &Server{Live: l, Term: t, Notes: notes, Interval: UpdateInterval, Speed: 1, mux: http.NewServeMux()}
	fl, err := newFiles(StaticFS())
	if err != nil {
		panic(fmt.Sprintf("web: the page's files built into the binary: %v", err)) // our own bug
	}
	s.mux.Handle("GET /", fl)
	s.mux.HandleFunc("GET /api/stream", s.handleStream)
	s.mux.HandleFunc("GET /api/wire", s.handleWire)
	for _, r := range apiRoutes {
		s.mux.HandleFunc(r.method+" "+r.path, s.serveAPI)
	}
	return s
}

// ServeHTTP serves the page and the API to the page itself: it refuses a
// foreign Host with 421 (DNS rebinding), a request from another site with
// 403, and a state-changing request that is not a JSON POST without a
// query string with 415 or 400, before any route runs.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	SetHeaders(w.Header())
	if code, err := s.admit(r); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Run advances the live world at wall-clock pace until ctx is done
// ([Live.RunClock] at Interval, from Speed), writing each internal error to
// Log.
func (s *Server) Run(ctx context.Context) error {
	if s.Speed > 1 {
		s.Live.SetSpeed(s.Speed)
	}
	interval := s.Interval
	if interval <= 0 {
		interval = UpdateInterval
	}
	s.Live.RunClock(ctx, interval, s.Log)
	return nil
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
)

// SetHeaders sets the headers every answer of the page's servers carries
// (this one's and the observed cluster's): no MIME sniffing, no framing
// (clickjacking), and no use of its files by another site.
func SetHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// Admit checks r as a Server whose further host names are hosts does
// before any route runs (Host, Origin, Sec-Fetch-Site; a JSON body for a
// request that acts), returning the status of its refusal: for another
// server of the page's kind (the observed cluster's, web/observed).
func Admit(r *http.Request, hosts []string) (int, error) { return (&Server{Hosts: hosts}).admit(r) }

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

// api returns the API over the server's Live, terminal and notes.
func (s *Server) api() *API { return &API{Live: s.Live, Term: s.Term, Notes: s.Notes} }

// serveAPI answers an API route: the request's query, its body (at most
// MaxBodyBytes; more gets 413) and its context make the Call.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	c := Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Ctx: r.Context()}
	if r.Method == http.MethodPost {
		b, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil {
			http.Error(w, fmt.Sprintf("%v: %s: %v", ErrBadBody, r.URL.Path, err), http.StatusBadRequest)
			return
		}
		c.Body = b
	}
	if c.Path == "/api/exec" {
		// a terminal line may run long (run 3600000): ExecTimeout, not
		// WriteTimeout, bounds it, and it stops in time to answer why
		d := s.limits().ExecTimeout
		ctx, cancel := context.WithTimeoutCause(c.Ctx, d, fmt.Errorf("a line of the page's terminal runs at most %v (kafkalive serve --exec-timeout)", d))
		defer cancel()
		c.Ctx = ctx
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d + 10*time.Second))
	}
	reply := s.api().Serve(c)
	if reply.ContentType != "" {
		w.Header().Set("Content-Type", reply.ContentType)
	}
	w.WriteHeader(reply.Status)
	w.Write(reply.Body)
}
