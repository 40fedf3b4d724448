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
// changes ([Watch]). A query FocusOf refuses gets 400 and why; a stream
// past Limits.MaxStreams 503 and why. A stream lasts as long as its page
// (no read or write deadline of the whole), but a frame the page does not
// take within Limits.StreamWriteTimeout ends it.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	f, err := FocusOf(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !s.openStream(w) {
		return
	}
	defer s.closeStream()
	// net/http clears the read deadline once the request is read; the
	// write deadline of the whole (WriteTimeout) is replaced by one a
	// frame
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	timeout := s.limits().StreamWriteTimeout
	s.Live.Watch(r.Context(), f, s.streamGap, func(b []byte) error {
		rc.SetWriteDeadline(time.Now().Add(timeout))
		if _, err := fmt.Fprintf(w, "event: frame\ndata: %s\n\n", b); err != nil {
			return err
		}
		return rc.Flush()
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
