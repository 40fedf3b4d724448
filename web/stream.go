//go:build !js

package web

import (
	"fmt"
	"net/http"
	"time"
)

// handleStream sends the update stream as Server-Sent Events: one "frame"
// event at each change of what the page shows, the whole update first and
// patches after ([Frame]), for the page that shows the focus its query
// names (FocusOf), at most one every streamGap however often the world
// changes ([Watch]). A query FocusOf refuses gets 400 and why.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	f, err := FocusOf(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	s.Live.Watch(r.Context(), f, s.streamGap, func(b []byte) error {
		if _, err := fmt.Fprintf(w, "event: frame\ndata: %s\n\n", b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	})
}

// streamGap is the least time between two frames of a stream: the update
// interval, so that a page gets at most the ten updates a second it draws.
func (s *Server) streamGap() time.Duration {
	if s.Interval <= 0 {
		return UpdateInterval
	}
	return s.Interval
}
