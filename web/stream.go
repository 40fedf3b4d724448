package web

import (
	"fmt"
	"net/http"
)

// handleStream sends the live view as Server-Sent Events: one "view" event
// at each change of state (Live.Changed), each a compact View of the
// partition the page shows (?topic=&partition=). A client slower than the
// changes gets the newest state each time, never a backlog.
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
		}
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		}
	}
}
