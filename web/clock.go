package web

import (
	"context"
	"fmt"
	"io"
	"time"
)

// UpdateInterval is how often the live world advances and the page gets an
// update: ten a second.
const UpdateInterval = 100 * time.Millisecond

// RunClock advances the live world every interval by as much (times the
// speed: [Live.SetSpeed]) until ctx is done: the one goroutine that moves
// the simulated time, at wall-clock pace. An internal error stops nothing
// silently: the page shows it (View.Internal) and log, when set, gets it
// once; the world goes on after one it recorded, a world whose run failed
// stops, and after Reset the new world runs.
func (l *Live) RunClock(ctx context.Context, interval time.Duration, log io.Writer) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	reported := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			l.Advance(interval.Milliseconds()) // an error shows as the view's Internal
			ie := l.InternalError()
			switch {
			case ie == nil:
				reported = 0
			case ie.Count != reported:
				reported = ie.Count
				if log != nil {
					what := "the world goes on"
					if ie.Stopped {
						what = "the world stopped; Reset starts a new one"
					}
					fmt.Fprintf(log, "kafkalive: internal error at t=%d ms (%s): %s\nreplay: %s\n", ie.TimeMs, what, ie.Error, ie.Replay)
				}
			}
		}
	}
}
