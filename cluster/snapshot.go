package cluster

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
)

// snapshot is the world's state at one moment, between two actions, with
// no history of its own.
type snapshot struct {
	state   *World
	timeMs  int64
	actions int   // actions applied, counting those that fell off
	events  int   // events recorded, counting those that fell off
	bytes   int64 // World.actionBytes then
}

// actionSize is what an action weighs in the history it is kept in: an
// external request's body and a produced value, plus a little for the rest.
func actionSize(a *Action) int64 {
	n := int64(64 + len(a.Value) + len(a.Key))
	if a.External != nil {
		n += int64(len(a.External.Body))
	}
	return n
}

// Clone returns an independent copy of the world: brokers with their file
// systems, logs and replicas, the controller, the network's messages in
// flight, producers, consumers, group coordinators, the checker and the
// random generator's state. Both then evolve independently, and
// identically under the same actions. The history (events, actions,
// snapshots) is shared until either side adds to it.
func (w *World) Clone() *World {
	w.buildEvents()
	c := w.cloneState(false)
	c.events, c.actions, c.snaps = slices.Clip(w.events), slices.Clip(w.actions), slices.Clip(w.snaps)
	c.built = len(c.events)
	return c
}

// cloneState copies everything but the history, each machine by its own
// Clone: what a machine shares with its clone is what nothing changes in
// place (appended batches, sealed segments and pages until written, sent
// messages), so a snapshot costs what changed, not what the world holds.
// The scratch spaces (the peeked logs of stopped brokers, the replay's
// Preparer) start empty. For a snapshot (forSnapshot), which nothing runs,
// a replica nothing changed since the last snapshot is that snapshot's
// copy (broker.Broker.Snapshot): a snapshot of many idle partitions costs
// the few that changed.
func (w *World) cloneState(forSnapshot bool) *World {
	c := &World{cfg: w.cfg, now: w.now, clock: w.clock, eventBase: w.eventBase, actionBase: w.actionBase, actionBytes: w.actionBytes,
		err: w.err, internal: slices.Clip(w.internal), internalCount: w.internalCount}
	pcg := *w.pcg
	c.pcg = &pcg
	c.rnd = rand.New(c.pcg)
	c.brokers = make([]*broker.Broker, len(w.brokers))
	for i, b := range w.brokers {
		if forSnapshot {
			c.brokers[i] = b.Snapshot(&c.clock, c.rnd)
		} else {
			c.brokers[i] = b.Clone(&c.clock, c.rnd)
		}
	}
	c.ctl = w.ctl.Clone()
	c.net = *w.net.Clone()
	c.producers = make([]*Producer, len(w.producers))
	for i, p := range w.producers {
		c.producers[i] = p.Clone()
	}
	c.consumers = make([]*Consumer, len(w.consumers))
	for i, cs := range w.consumers {
		cc, err := cs.Clone()
		if err != nil {
			panic(err) // the same assignors, by construction: our bug
		}
		c.consumers[i] = cc
	}
	c.progress = w.progress.Clone()
	c.check = w.check.clone()
	c.reqs = w.reqs.Clone()
	return c
}

// clone copies the checker's state: its maps hold values only.
func (c *checker) clone() checker {
	d := *c
	d.violations = slices.Clip(c.violations)
	d.active, d.leaderHW, d.epochOwner, d.matched = maps.Clone(c.active), maps.Clone(c.leaderHW), maps.Clone(c.epochOwner), maps.Clone(c.matched)
	d.pending = slices.Clone(c.pending)
	return d
}

// StartMs returns the earliest moment the timeline can show: 0, or the
// oldest snapshot kept when [TimelineConfig.KeepMs] or
// [TimelineConfig.KeepBytes] bounds the history.
func (w *World) StartMs() int64 {
	if t := w.cfg.Timeline; len(w.snaps) == 0 || t.KeepMs == 0 && t.KeepBytes == 0 {
		return 0
	}
	return w.snaps[0].timeMs
}

// Snapshots returns the times of the snapshots kept, oldest first.
func (w *World) Snapshots() []int64 {
	out := make([]int64, len(w.snaps))
	for i, s := range w.snaps {
		out[i] = s.timeMs
	}
	return out
}

// snapshot takes a snapshot if one is due, then lets the history older
// than KeepMs fall off.
func (w *World) snapshot() {
	t := w.cfg.Timeline
	if t.SnapshotEveryMs == 0 {
		return
	}
	if n := len(w.snaps); n > 0 && w.now-w.snaps[n-1].timeMs < t.SnapshotEveryMs &&
		(t.KeepBytes == 0 || w.actionBytes-w.snaps[n-1].bytes < t.KeepBytes/4) {
		return
	}
	w.snaps = append(w.snaps, snapshot{state: w.cloneState(true), timeMs: w.now,
		actions: w.actionBase + len(w.actions), events: w.eventBase + len(w.events), bytes: w.actionBytes})
	if t.SparseEveryMs > 0 {
		w.snaps = thin(w.snaps, w.now-t.DenseMs, t.SparseEveryMs)
	}
	if t.KeepMs > 0 {
		w.forgetBefore(firstAfter(w.snaps, w.now-t.KeepMs))
	}
	if t.KeepBytes > 0 {
		k := 0
		for k < len(w.snaps)-1 && w.actionBytes-w.snaps[k].bytes > t.KeepBytes {
			k++
		}
		w.forgetBefore(k)
	}
}

// thin keeps, of the snapshots before dense, the first of each span of
// every ms (by time / every); snaps itself when it keeps them all.
func thin(snaps []snapshot, dense, every int64) []snapshot {
	kept := snaps[:0:0]
	for i, s := range snaps {
		if i > 0 && s.timeMs < dense && s.timeMs/every == snaps[i-1].timeMs/every {
			continue
		}
		kept = append(kept, s)
	}
	if len(kept) < len(snaps) {
		return kept
	}
	return snaps
}

// firstAfter is the index of the first snapshot at or after cutoff, the
// last if none is (forgetting those before it keeps at least one).
func firstAfter(snaps []snapshot, cutoff int64) int {
	k := 0
	for k < len(snaps)-1 && snaps[k].timeMs < cutoff {
		k++
	}
	return k
}

// forgetBefore drops the snapshots before snapshot k, then the events and
// actions before it, and the producers' finished results sent before it.
func (w *World) forgetBefore(k int) {
	if k == 0 {
		return
	}
	// The few snapshots are copied (a dropped one holds a whole world);
	// the events and actions resliced (dropEvents says why).
	w.snaps = slices.Clone(w.snaps[k:])
	oldest := w.snaps[0]
	if oldest.events > w.eventBase { // else they fell off already (MaxEvents)
		w.dropEvents(oldest.events - w.eventBase)
	}
	w.actions = w.actions[oldest.actions-w.actionBase:]
	w.actionBase = oldest.actions
	for _, p := range w.producers {
		p.Forget(oldest.timeMs)
	}
}

// restore returns an independent world at snapshot i of w, with w's
// history up to it.
func (w *World) restore(i int) *World {
	w.buildEvents()
	s := w.snaps[i]
	f := s.state.cloneState(false)
	f.events = slices.Clip(w.events[:max(s.events-w.eventBase, 0)])
	f.built = len(f.events)
	f.actions = slices.Clip(w.actions[:s.actions-w.actionBase])
	f.eventBase, f.actionBase = min(w.eventBase, s.events), w.actionBase
	f.snaps = slices.Clip(w.snaps[:i+1])
	return f
}
