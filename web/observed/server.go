package observed

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/internal/kafkatools/observedtools"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
)

// Server serves the page of a real cluster an observer watches
// (kafkalive observe --addr): its brokers, partitions, groups and quorum
// at any sample of the observer's timeline, the events between samples,
// and Kafka's read-only tools. Nothing on it acts on the cluster: every
// request but those is refused ([ErrReadOnly]). It answers the page itself
// only, as web.Server does ([web.Admit]).
type Server struct {
	Observer *observe.Observer
	// Hosts are further HOST:PORT names a request's Host may give.
	Hosts []string
	mux   *http.ServeMux
}

// ErrReadOnly refuses, on an observed cluster's page, a request that
// would act.
var ErrReadOnly = errors.New("web: this page observes a real cluster and only looks: nothing here acts on it")

// MaxEvents bounds the events a View carries.
const MaxEvents = 60

// NewServer returns the page of what o observes.
func NewServer(o *observe.Observer) *Server {
	s := &Server{Observer: o, mux: http.NewServeMux()}
	files := http.FileServerFS(web.StaticFS())
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.StaticFS(), "observe.html")
	})
	s.mux.Handle("GET /style.css", files)
	s.mux.Handle("GET /js/", files)
	s.mux.HandleFunc("GET /api/observed", s.view)
	s.mux.HandleFunc("POST /api/observed/exec", s.exec)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, ErrReadOnly.Error(), http.StatusForbidden)
	})
	return s
}

// ServeHTTP admits a request as web.Server does, then serves it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	if code, err := web.Admit(r, s.Hosts); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// View is one sample of the observer's timeline as the page draws it.
type View struct {
	// Sample is the sample shown (its topics' configs left out: the
	// terminal's kafka-configs tells them); nil before the first poll.
	Sample *observe.Sample `json:"sample"`
	// First and Last are the sample numbers the timeline holds; Live is
	// set when the sample shown is the newest.
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
	Live  bool   `json:"live"`
	// Events are the newest MaxEvents events up to the sample shown,
	// newest last.
	Events []observe.Event `json:"events"`
	// Summary counts the sample shown.
	Summary observe.Summary `json:"summary"`
	// Unobservable is what no observer outside the brokers can see.
	Unobservable []string `json:"unobservable"`
}

// view answers GET /api/observed?seq=N (absent: the newest sample).
func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	var seq uint64
	if v := r.URL.Query().Get("seq"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			http.Error(w, "web: seq takes a sample's number: "+strconv.Quote(v), http.StatusBadRequest)
			return
		}
		seq = n
	}
	v := View{Unobservable: observe.Unobservable, Events: []observe.Event{}}
	s.Observer.Look(func(t *observe.Timeline) {
		latest := t.Latest()
		if latest == nil {
			return
		}
		shown := latest
		if seq != 0 {
			if shown = t.Seq(seq); shown == nil {
				shown = latest
			}
		}
		v.First, v.Last, v.Live = t.Samples()[0].Seq, latest.Seq, shown == latest
		v.Sample, v.Summary = withoutConfigs(shown), observe.Summarize(shown)
		evs := t.Events()
		end := len(evs)
		for end > 0 && evs[end-1].Seq > shown.Seq {
			end--
		}
		v.Events = append(v.Events, evs[max(0, end-MaxEvents):end]...)
	})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// withoutConfigs is s with its topics' configs left out.
func withoutConfigs(s *observe.Sample) *observe.Sample {
	c := *s
	c.Topics = make([]*observe.Topic, len(s.Topics))
	for i, t := range s.Topics {
		tc := *t
		tc.Configs = nil
		c.Topics[i] = &tc
	}
	return &c
}

// observedExec is a terminal line typed on the observed cluster's page,
// on the sample shown (0: the newest).
type observedExec struct {
	Line string `json:"line"`
	Seq  uint64 `json:"seq"`
}

// observedExecResult is what a line printed, and its error.
type observedExecResult struct {
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
}

// exec answers POST /api/observed/exec: one of Kafka's read-only tools on
// the sample shown; a command that would act is refused (403) and sent
// nowhere.
func (s *Server) exec(w http.ResponseWriter, r *http.Request) {
	var req observedExec
	if err := json.NewDecoder(io.LimitReader(r.Body, web.MaxBodyBytes)).Decode(&req); err != nil {
		http.Error(w, "web: the body is {\"line\": \"kafka-topics --describe\"}: "+err.Error(), http.StatusBadRequest)
		return
	}
	words, err := kafkatools.SplitLine(req.Line)
	var out strings.Builder
	status := http.StatusOK
	if err == nil && len(words) > 0 {
		var shown *observe.Sample
		s.Observer.Look(func(t *observe.Timeline) {
			if shown = t.Seq(req.Seq); shown == nil {
				shown = t.Latest()
			}
		})
		if shown == nil {
			err = errors.New("no poll yet")
		} else {
			err = observedtools.Run(shown, words, &out)
		}
	}
	res := observedExecResult{Output: out.String()}
	var printed kafkatools.Printed
	switch {
	case errors.Is(err, observedtools.ErrReadOnly):
		status = http.StatusForbidden
		res.Error = err.Error()
	case errors.As(err, &printed):
	case errors.Is(err, kafkatools.ErrUsage):
		res.Error = err.Error() + "; type help for the tools"
	case err != nil:
		res.Error = err.Error()
	}
	if len(words) > 0 && words[0] == "help" {
		res.Error, out = "", strings.Builder{}
		for _, t := range observedtools.Tools() {
			out.WriteString(t.Usage + "\n    " + t.Help + "\n")
		}
		res.Output = out.String()
		status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(res)
}
