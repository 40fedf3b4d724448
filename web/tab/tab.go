package tab

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/notes"
	"github.com/kafkalive/kafkalive/web"
)

// In is a message of the page to the Worker.
type In struct {
	// Op is what the page asks: "call" an API route (Method, Path with
	// its query, Body), "watch" the updates of Path
	// (/api/stream?topic=&partition=) until "unwatch" with the same ID,
	// or the memory's "stats".
	Op string
	// ID numbers the call or the watch; the answers carry it.
	ID     int
	Method string
	Path   string
	Body   string
}

// Out is a message of the Worker to the page.
type Out struct {
	// Op is "ready" once the world runs, "reply" to a call (Status,
	// Type, Body as the server's HTTP answer), "update" for a watch (Body
	// is a web.Frame of the update stream), "end" when a watch cannot go
	// on (Status and Body as the server's answer to /api/stream: 400 for
	// a query it refuses), "stats" (Body is a Stats), "log" (Body is a line
	// the server would have written to its standard error) or "fatal"
	// (Body says why the world cannot run; worker.js posts it too).
	Op     string
	ID     int
	Status int
	Type   string
	Body   string
}

// Stats is what the Worker's Go says of its memory.
type Stats struct {
	// HeapBytes is the live heap and what the collector has not yet
	// freed (runtime.MemStats.HeapAlloc); SysBytes all the runtime took
	// from the WebAssembly memory, which never gives it back (Sys).
	HeapBytes uint64 `json:"heap_bytes"`
	SysBytes  uint64 `json:"sys_bytes"`
	// WasmBytes is the size of the WebAssembly memory (0: unknown).
	WasmBytes uint64 `json:"wasm_bytes"`
	// TimeMs is the live world's time.
	TimeMs int64 `json:"t"`
}

// Tab is the world of one browser tab and the page's API over it, talking
// to the page by messages: Receive takes the page's, post sends the
// Worker's. Receive never blocks: each call runs on a goroutine of its
// own, as the server gives each request one.
type Tab struct {
	// Memory, when set, reports the bytes of the WebAssembly memory
	// (Stats.WasmBytes).
	Memory func() uint64

	live  *web.Live
	api   *web.API
	post  func(Out)
	mu    sync.Mutex
	watch map[int]context.CancelFunc
}

// New returns the tab's world (the default one, with the tab's bounds:
// [Config]) and its API, posting its messages with post, which may be
// called from any goroutine.
func New(post func(Out)) (*Tab, error) {
	cfg := Config()
	live, err := web.NewLiveWallClock(&cfg, wallClock)
	if err != nil {
		return nil, err
	}
	return newTab(live, post), nil
}

// wallClock is the browser's clock (Date.now, through time.Now), where
// Kafka's clock starts in each world the tab builds, as in the server's
// (kafkalive serve): a world started at 0 would show 1970 and stamp its
// records so.
var wallClock = func() int64 { return time.Now().UnixMilli() }

// newTab returns the tab of live's world.
func newTab(live *web.Live, post func(Out)) *Tab {
	return &Tab{live: live, api: &web.API{Live: live, Term: web.NewTerminal(live), Notes: notes.FS}, post: post, watch: map[int]context.CancelFunc{}}
}

// Live returns the tab's world.
func (t *Tab) Live() *web.Live { return t.live }

// Run moves the world's clock at wall-clock pace until ctx is done
// ([web.Live.RunClock]): an internal error goes to the page as a "log"
// message too.
func (t *Tab) Run(ctx context.Context) {
	t.post(Out{Op: "ready"})
	t.live.RunClock(ctx, web.UpdateInterval, logWriter{t})
}

// logWriter posts what it is given as "log" messages.
type logWriter struct{ t *Tab }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.post(Out{Op: "log", Body: string(p)})
	return len(p), nil
}

var _ io.Writer = logWriter{}

// Receive acts on one message of the page.
func (t *Tab) Receive(m In) {
	switch m.Op {
	case "call":
		go t.call(m)
	case "watch":
		t.startWatch(m)
	case "unwatch":
		t.mu.Lock()
		if stop, ok := t.watch[m.ID]; ok {
			stop()
			delete(t.watch, m.ID)
		}
		t.mu.Unlock()
	case "stats":
		go t.stats(m)
	default:
		t.post(Out{Op: "reply", ID: m.ID, Status: 400, Type: "text/plain; charset=utf-8", Body: fmt.Sprintf("tab: unknown message op %q (want call, watch, unwatch or stats)\n", m.Op)})
	}
}

// call answers an API call as the server answers its HTTP request.
func (t *Tab) call(m In) {
	u, err := url.Parse(m.Path)
	if err != nil || !strings.HasPrefix(u.Path, "/api/") {
		t.post(Out{Op: "reply", ID: m.ID, Status: 404, Type: "text/plain; charset=utf-8", Body: "404 page not found\n"})
		return
	}
	c := web.Call{Method: m.Method, Path: u.Path, Query: u.Query()}
	if m.Method == "POST" {
		c.Body = []byte(m.Body)
	}
	r := t.api.Serve(c)
	t.post(Out{Op: "reply", ID: m.ID, Status: r.Status, Type: r.ContentType, Body: string(r.Body)})
}

// The least time between two updates of a watch, counted from the start
// of one to the start of the next ([web.Watch]). Each update is parsed and
// drawn on the page's main thread while the Worker takes a core of the two
// a small machine has: one per tick of the clock, ten a second, as the
// server's stream, and four while a long terminal run takes the Worker
// (each of its steps changes the world, and the page has only to show
// that time goes on).
const (
	WatchGap   = web.UpdateInterval
	RunningGap = 250 * time.Millisecond
)

// watchGap is the least time before the next update of a watch.
func (t *Tab) watchGap() time.Duration {
	if t.live.Running() {
		return RunningGap
	}
	return WatchGap
}

// startWatch streams the updates of the partition m.Path names until
// "unwatch" (web.Live.Watch, at most one every watchGap).
func (t *Tab) startWatch(m In) {
	u, err := url.Parse(m.Path)
	if err != nil {
		u = &url.URL{}
	}
	f, err := web.FocusOf(u.Query())
	if err != nil {
		t.post(Out{Op: "end", ID: m.ID, Status: 400, Type: "text/plain; charset=utf-8", Body: err.Error() + "\n"})
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	t.mu.Lock()
	if old, ok := t.watch[m.ID]; ok {
		old()
	}
	t.watch[m.ID] = stop
	t.mu.Unlock()
	go t.live.Watch(ctx, f, t.watchGap, func(b []byte) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		t.post(Out{Op: "update", ID: m.ID, Body: string(b)})
		return nil
	})
}

// stats answers the memory's figures.
func (t *Tab) stats(m In) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := Stats{HeapBytes: ms.HeapAlloc, SysBytes: ms.Sys}
	if t.Memory != nil {
		st.WasmBytes = t.Memory()
	}
	t.live.Look(nil, func(w *cluster.World) error {
		st.TimeMs = w.NowMs()
		return nil
	})
	b, _ := json.Marshal(st)
	t.post(Out{Op: "stats", ID: m.ID, Type: "application/json", Body: string(b)})
}
