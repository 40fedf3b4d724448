package web

import (
	"context"
	"time"
)

// Source is what the update stream follows ([Watch]): a state that
// changes, and the present's update of it for the page that shows a focus.
// [Live] is one; a page fed from elsewhere (a real cluster, sampled)
// implements the same three methods, encoding its updates with a
// [Versions] of its own.
type Source interface {
	// Changed returns a channel closed at the next change of state; it is
	// taken before Version, so that no change falls between the two.
	Changed() <-chan struct{}
	// Version returns a number that changes whenever the state may have.
	Version() uint64
	// Present returns the present's update for f, encoded, and the
	// version of the state it is of.
	Present(f Focus) (*EncodedUpdate, uint64, error)
}

// Watch sends the update stream of a page that shows f (a [Frame] each,
// encoded): the whole update at once, then at each change of state a patch
// of what the page shows that changed, at most one every gap() (asked
// after each, counted from the start of the one before) however often the
// state changes, until ctx is done (nil) or send fails (its error). A
// watcher slower than the changes gets the newest state each time, never
// a backlog; a change the page does not see (another page's partition)
// sends nothing. It is the update stream of both transports: the server's
// Server-Sent Events (/api/stream) and the messages of the Web Worker that
// runs the world in a browser tab.
func Watch(ctx context.Context, src Source, f Focus, gap func() time.Duration, send func(frame []byte) error) error {
	var fr frames
	var last uint64
	first := true
	for {
		changed := src.Changed() // before Version: a change in between wakes us at once
		if v := src.Version(); first || v != last {
			start := time.Now()
			e, v, err := src.Present(f)
			if err != nil {
				return err
			}
			last, first = v, false
			b, ok, err := fr.next(e)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := send(b); err != nil {
				return err
			}
			// A client's flood changes the world thousands of times a
			// second: a view for each would take the world's lock, and a
			// core, from the flood, for a page that cannot show them.
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Until(start.Add(gap()))):
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

// Watch is [Watch] on the Live's world.
func (l *Live) Watch(ctx context.Context, f Focus, gap func() time.Duration, send func(frame []byte) error) error {
	return Watch(ctx, l, f, gap, send)
}
