package web

import (
	"context"
	"time"
)

// Watch sends the present's update for a page that shows f (an [Update],
// encoded: [Live.ViewJSON]): one at once, then one at each change of
// state, at most one every gap() (asked after each) however often the
// world changes, until ctx is done (nil) or send fails (its error). A
// watcher slower than the changes gets the newest state each time, never
// a backlog. It is the update stream of both transports: the server's
// Server-Sent Events (/api/stream) and the messages of the Web Worker that
// runs the world in a browser tab.
func (l *Live) Watch(ctx context.Context, f Focus, gap func() time.Duration, send func(update []byte) error) error {
	var last uint64
	sent := false
	for {
		changed := l.Changed() // before Version: a change in between wakes us at once
		if v := l.Version(); !sent || v != last {
			b, v, err := l.ViewJSON(f)
			if err != nil {
				return err
			}
			if err := send(b); err != nil {
				return err
			}
			last, sent = v, true
			// A client's flood changes the world thousands of times a
			// second: a view for each would take the world's lock, and a
			// core, from the flood, for a page that cannot show them.
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(gap()):
			}
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
		}
	}
}
