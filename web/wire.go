//go:build !js

package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// The bounds of the wire's view.
const (
	// WireWatchFor is how long a client's exchanges are recorded after a
	// view of the wire last asked for them: the page's panel asks again
	// while it is open, and recording stops soon after it closes.
	WireWatchFor = 5 * time.Second
	// MaxWireExchanges bounds the exchanges kept, every client together;
	// the oldest fall off first.
	MaxWireExchanges = 2000
	// MaxWireLine bounds a request's or a response's line, in bytes.
	MaxWireLine = 400
)

// Wire records, for the page's view of the wire, the requests and
// responses of the Kafka clients someone watches: a [kafkawire.Tap] that
// keeps each exchange decoded ([kafkawire.Summary]), at most
// MaxWireExchanges of them, and only while a view asked within
// WireWatchFor. Its methods are safe for concurrent use.
type Wire struct {
	mu  sync.Mutex
	now func() time.Time
	// watched are the client ids watched, until when ("" : every client).
	watched map[string]time.Time
	kept    []WireExchange
	seq     uint64 // the last exchange's sequence number
}

// WireExchange is one exchange the wire kept, numbered, with its error
// codes by Kafka's name.
type WireExchange struct {
	Seq uint64 `json:"seq"`
	kafkawire.Summary
	Errors []string `json:"errors,omitempty"`
}

// NewWire returns a wire that watches no one.
func NewWire() *Wire { return &Wire{now: time.Now, watched: map[string]time.Time{}} }

// Tapping implements kafkawire.Tap: whether conn's client is watched.
func (w *Wire) Tapping(conn kafkawire.ConnInfo) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	return now.Before(w.watched[""]) || now.Before(w.watched[conn.ClientID])
}

// Exchanged implements kafkawire.Tap: it keeps x decoded.
func (w *Wire) Exchanged(x kafkawire.Exchange) {
	s := kafkawire.Summarize(x)
	s.Request, s.Response = cut(s.Request, MaxWireLine), cut(s.Response, MaxWireLine)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	if len(w.kept) == MaxWireExchanges {
		copy(w.kept, w.kept[1:])
		w.kept = w.kept[:len(w.kept)-1]
	}
	kept := WireExchange{Seq: w.seq, Summary: s}
	for _, c := range s.ErrorCodes {
		kept.Errors = append(kept.Errors, cluster.ErrorName(c))
	}
	w.kept = append(w.kept, kept)
}

// cut is s cut to at most n bytes, "…" marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n-- // not inside a UTF-8 sequence
	}
	return s[:n] + "…"
}

// WireQuery is what a view of the wire asks: the exchanges after Since of
// Client ("" every client) and API ("" every API), at most Limit: the
// newest, or with From the oldest from exchange From on (where a record's
// journey links to).
type WireQuery struct {
	Client, API string
	Since       uint64
	From        uint64
	Limit       int
}

// WireView answers a WireQuery: the exchanges, oldest first; Next is the
// Since of the next query; Dropped counts the exchanges after Since that
// fell off before they were asked for.
type WireView struct {
	Exchanges []WireExchange `json:"exchanges"`
	Next      uint64         `json:"next"`
	Dropped   uint64         `json:"dropped"`
	// Watching is the client watched ("" every one) and until when.
	Watching string    `json:"watching"`
	Until    time.Time `json:"until"`
}

// View answers q, and watches q.Client for WireWatchFor from now.
func (w *Wire) View(q WireQuery) WireView {
	w.mu.Lock()
	defer w.mu.Unlock()
	until := w.now().Add(WireWatchFor)
	w.watched[q.Client] = until
	for c, t := range w.watched {
		if !w.now().Before(t) {
			delete(w.watched, c)
		}
	}
	v := WireView{Next: w.seq, Watching: q.Client, Until: until, Exchanges: []WireExchange{}}
	if len(w.kept) > 0 && w.kept[0].Seq > q.Since+1 {
		v.Dropped = w.kept[0].Seq - q.Since - 1
	}
	after := max(q.Since+1, q.From)
	i, _ := slices.BinarySearchFunc(w.kept, after, func(x WireExchange, seq uint64) int { return int(int64(x.Seq) - int64(seq)) })
	for _, x := range w.kept[i:] {
		if (q.Client == "" || x.Client == q.Client) && (q.API == "" || x.API == q.API) {
			v.Exchanges = append(v.Exchanges, x)
		}
	}
	switch {
	case q.Limit > 0 && len(v.Exchanges) > q.Limit && q.From > 0:
		v.Exchanges = v.Exchanges[:q.Limit]
		v.Next = v.Exchanges[q.Limit-1].Seq
	case q.Limit > 0 && len(v.Exchanges) > q.Limit:
		v.Exchanges = v.Exchanges[len(v.Exchanges)-q.Limit:]
	}
	return v
}

// MaxJourneyWire bounds the exchanges a record's journey links to: the
// newest that carried it.
const MaxJourneyWire = 8

// carrying are the newest MaxJourneyWire exchanges kept that carried
// offset of the partition (a Produce that wrote it, a Fetch that read it),
// oldest first, for a record's journey.
func (w *Wire) carrying(topic string, id [16]byte, partition int32, offset int64) []JourneyWire {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []JourneyWire
	for i := len(w.kept) - 1; i >= 0 && len(out) < MaxJourneyWire; i-- {
		x := &w.kept[i]
		for _, c := range x.Carried {
			if c.Holds(topic, id, partition, offset) {
				out = append(out, JourneyWire{Seq: x.Seq, API: x.API, Client: x.Client, Broker: x.Broker, Correlation: x.Correlation,
					First: c.First, Last: c.Last, At: x.At})
				break
			}
		}
	}
	slices.Reverse(out)
	return out
}

// wireOf is the wire of l's Kafka listeners, nil without them.
func wireOf(l *Live) *Wire {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k, ok := l.kafka.(*Kafka); ok {
		return k.wire
	}
	return nil
}

// handleWire answers GET /api/wire?client=C&api=A&since=N&limit=L (or
// &from=S: from exchange S on) with a WireView, and watches client C
// (every client without one) for WireWatchFor: the page's panel of the
// wire.
func (s *Server) handleWire(w http.ResponseWriter, r *http.Request) {
	wire := wireOf(s.Live)
	if wire == nil {
		http.Error(w, "web: the brokers have no Kafka listeners, so no client's requests to show (kafkalive serve without --no-kafka)", http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	wq := WireQuery{Client: q.Get("client"), API: q.Get("api"), Limit: 200}
	var err error
	if v := q.Get("since"); v != "" {
		if wq.Since, err = strconv.ParseUint(v, 10, 64); err != nil {
			http.Error(w, "web: since takes the next of the last answer, a whole number: "+strconv.Quote(v), http.StatusBadRequest)
			return
		}
	}
	if v := q.Get("from"); v != "" {
		if wq.From, err = strconv.ParseUint(v, 10, 64); err != nil {
			http.Error(w, "web: from takes an exchange's number: "+strconv.Quote(v), http.StatusBadRequest)
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if wq.Limit, err = strconv.Atoi(v); err != nil || wq.Limit < 1 || wq.Limit > MaxWireExchanges {
			http.Error(w, "web: limit takes a whole number from 1 to "+strconv.Itoa(MaxWireExchanges)+": "+strconv.Quote(v), http.StatusBadRequest)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(wire.View(wq))
}
