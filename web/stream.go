package web

import (
	"fmt"
	"net/http"
	"time"
)

// handleStream sends the live view as Server-Sent Events: one "view" event
// at each change of state (Live.Changed), each a compact View of the
// partition the page shows (?topic=&partition=), at most one every
// streamGap (Interval/2: twice the world's own pace), however often the
// world changes. A client slower than the changes gets the newest state
// each time, never a backlog.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	f := focusOf(r)
	var last uint64
	sent := false
	for {
		changed := s.Live.Changed() // before Version: a change in between wakes us at once
		if v := s.Live.Version(); !sent || v != last {
			b, v, err := s.Live.ViewJSON(f)
			if err != nil {
				return
			}
			if _, err := fmt.Fprintf(w, "event: view\ndata: %s\n\n", b); err != nil {
				return
			}
			fl.Flush()
			last, sent = v, true
			// A client's flood changes the world thousands of times a
			// second: a view for each would take the world's lock, and a
			// core, from the flood, for a page that cannot show them.
			select {
			case <-r.Context().Done():
				return
			case <-time.After(s.streamGap()):
			}
			continue
		}
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		}
	}
}

// streamGap is the least time between two views of a stream: half the
// update interval.
func (s *Server) streamGap() time.Duration {
	if s.Interval <= 0 {
		return UpdateInterval / 2
	}
	return s.Interval / 2
}
