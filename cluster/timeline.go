package cluster

import "fmt"

// Replay returns a new world built from cfg by applying actions (the first
// may be [ActNew], which is skipped). The same config and actions always
// give the same world and the same events.
func Replay(cfg Config, actions []Action) (*World, error) {
	w, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i, a := range actions {
		if i == 0 && a.Kind == ActNew {
			continue
		}
		if err := w.Do(a); err != nil {
			return w, fmt.Errorf("cluster: replay action %d (%s): %w", i, a, err)
		}
	}
	return w, nil
}

// At returns the world as it was right after action step (0 is the new
// world), rebuilt by replaying the actions up to it. The returned world is
// independent: actions on it make a new future (a fork), and this world is
// unchanged. Replay costs time proportional to the history; the package
// benchmark measures it.
func (w *World) At(step int) (*World, error) {
	if step < 0 || step >= len(w.actions) {
		return nil, fmt.Errorf("%w: step %d not in [0, %d)", ErrInvalidConfig, step, len(w.actions))
	}
	return Replay(w.cfg, w.actions[:step+1])
}

// AtTime returns the world as it was at time ms: the actions before it are
// replayed, and a run that spans ms is cut there. Like [World.At] the result
// is an independent fork.
func (w *World) AtTime(ms int64) (*World, error) {
	if ms < 0 || ms > w.now {
		return nil, fmt.Errorf("%w: time %d not in [0, %d]", ErrInvalidConfig, ms, w.now)
	}
	f, err := New(w.cfg)
	if err != nil {
		return nil, err
	}
	for _, a := range w.actions[1:] {
		if a.Kind == ActRun && f.now+a.Ms > ms {
			a.Ms = ms - f.now
			if a.Ms > 0 {
				err = f.Do(a)
			}
			return f, err
		}
		if f.now >= ms && (a.Kind == ActRun || a.Kind == ActDeliver) {
			return f, nil
		}
		if err := f.Do(a); err != nil {
			return f, err
		}
	}
	return f, nil
}

// AtEvent returns the world right after the action during which event seq
// happened (see [Event.Step]).
func (w *World) AtEvent(seq int) (*World, error) {
	if seq < 0 || seq >= len(w.events) {
		return nil, fmt.Errorf("%w: event %d not in [0, %d)", ErrInvalidConfig, seq, len(w.events))
	}
	return w.At(max(w.events[seq].Step, 0))
}

// Fork returns an independent copy of the world as it is now.
func (w *World) Fork() (*World, error) { return w.At(len(w.actions) - 1) }
