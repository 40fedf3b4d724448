package web

import (
	"errors"
	"io"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// session is where a Kafka tool typed in the terminal runs
// ([kafkatools.Session]): the world shown at moment at (nil: now), and,
// when the tool acts, the present or a new future forked from that
// moment.
type session struct {
	t  *Terminal
	at *int64
}

// Look runs fn on the world shown, without acting.
func (s session) Look(fn func(w *cluster.World) error) error { return s.t.live.Look(s.at, fn) }

// Do runs fn on the world to act on.
func (s session) Do(fn func(w *cluster.World) error) error { return s.t.live.Do(s.at, fn) }

// Act is actChecked.
func (s session) Act(out io.Writer, check func(*cluster.World) (cluster.Action, error), done string) (refused, err error) {
	return s.t.actChecked(s.at, out, check, done)
}

// kafkaTool runs one of Kafka's tools in the terminal.
func kafkaTool(tool kafkatools.Tool) func(*Terminal, []string, *int64, io.Writer) error {
	return func(t *Terminal, args []string, at *int64, out io.Writer) error {
		return tool.Run(session{t, at}, args, out)
	}
}

// actChecked is act for an action the controller checks first: check
// runs in the world's lock and returns the action, or the refusal, which
// actChecked returns without acting (from a moment of the past, without
// forking: the future stays as it was); done is printed before the
// events.
func (t *Terminal) actChecked(at *int64, out io.Writer, check func(*cluster.World) (cluster.Action, error), done string) (refused, err error) {
	err = t.live.Do(at, func(w *cluster.World) error {
		a, err := check(w)
		if err != nil {
			refused = err
			return errRefused
		}
		from := nextSeq(w)
		if err := w.Do(a); err != nil {
			return err
		}
		io.WriteString(out, done)
		printEvents(out, eventsSince(w, from), 20)
		return nil
	})
	if err == errRefused {
		err = nil
	}
	return refused, err
}

// errRefused tells Live.Do that actChecked's check refused the action, so
// that a world forked from the past to take it is dropped.
var errRefused = errors.New("web: the action was refused")
