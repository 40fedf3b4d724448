//go:build !js

package web

import (
	"fmt"
	"net/http"
	"time"
)

// handleStream sends the live view as Server-Sent Events: one "view" event
// at each change of state, each an Update of the partition the page shows
// (?topic=&partition=), at most one every streamGap (Interval/2: twice the
// world's own pace), however often the world changes ([Live.Watch]).
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	s.Live.Watch(r.Context(), FocusOf(r.URL.Query()), s.streamGap, func(b []byte) error {
		if _, err := fmt.Fprintf(w, "event: view\ndata: %s\n\n", b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	})
}

// streamGap is the least time between two views of a stream: half the
// update interval.
func (s *Server) streamGap() time.Duration {
	if s.Interval <= 0 {
		return UpdateInterval / 2
	}
	return s.Interval / 2
}
