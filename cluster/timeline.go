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
// world), rebuilt by replaying the actions up to it from the nearest
// snapshot before it ([TimelineConfig], or from the start without
// snapshots). The returned world is independent: actions on it make a new
// future (a fork), and this world is unchanged. Replay costs time
// proportional to the actions replayed; the package benchmark measures it.
func (w *World) At(step int) (*World, error) {
	if step < w.actionBase || step >= w.actionBase+len(w.actions) {
		return nil, fmt.Errorf("%w: step %d not in [%d, %d)", ErrInvalidConfig, step, w.actionBase, w.actionBase+len(w.actions))
	}
	if len(w.snaps) == 0 {
		return Replay(w.cfg, w.actions[:step+1])
	}
	i := len(w.snaps) - 1
	for i > 0 && w.snaps[i].actions > step+1 {
		i--
	}
	f := w.restore(i)
	for _, a := range w.actions[f.actionBase+len(f.actions)-w.actionBase : step+1-w.actionBase] {
		if err := f.Do(a); err != nil {
			return f, fmt.Errorf("cluster: replay action %d (%s): %w", f.actionBase+len(f.actions)-1, a, err)
		}
	}
	return f, nil
}

// AtTime returns the world as it was at time ms: the actions before it are
// replayed from the nearest snapshot before ms (or from the start), and a
// run that spans ms is cut there. Like [World.At] the result is an
// independent fork. Times before [World.StartMs] fell off the timeline.
func (w *World) AtTime(ms int64) (*World, error) {
	if ms < w.StartMs() || ms > w.now {
		return nil, fmt.Errorf("%w: time %d not in [%d, %d]", ErrInvalidConfig, ms, w.StartMs(), w.now)
	}
	f, rest, err := w.base(ms)
	if err != nil {
		return nil, err
	}
	for _, a := range rest {
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

// base returns a new world at the latest snapshot at or before ms (a new
// world without snapshots) and the actions after it.
func (w *World) base(ms int64) (*World, []Action, error) {
	if len(w.snaps) == 0 {
		f, err := New(w.cfg)
		return f, w.actions[1:], err
	}
	i := len(w.snaps) - 1
	for i > 0 && w.snaps[i].timeMs >= ms { // a Deliver at ms after a run to ms is not part of ms
		i--
	}
	f := w.restore(i)
	return f, w.actions[w.snaps[i].actions-w.actionBase:], nil
}

// AtEvent returns the world right after the action during which event seq
// happened (see [Event.Step]).
func (w *World) AtEvent(seq int) (*World, error) {
	if seq < w.eventBase || seq >= w.eventBase+len(w.events) {
		return nil, fmt.Errorf("%w: event %d not in [%d, %d)", ErrInvalidConfig, seq, w.eventBase, w.eventBase+len(w.events))
	}
	return w.At(max(w.events[seq-w.eventBase].Step, 0))
}

// Fork returns an independent copy of the world as it is now.
func (w *World) Fork() (*World, error) {
	if len(w.snaps) > 0 {
		return w.Clone(), nil
	}
	return w.At(len(w.actions) - 1)
}
