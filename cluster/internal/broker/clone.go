package broker

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// Clone returns an independent copy of the broker for a copy of its world:
// its file system (vfs.MemFS.Clone: pages shared until either side writes
// them), each replica's log on that copy and its replica machine, its
// group coordinator over the copy's logs, its schedules and counters. The
// clone's logs read the time at clock and draw from rnd, the world copy's.
// It shares what is never changed in place: the coordinator's answers held
// for an append (sent as they are), the configuration's functions.
func (b *Broker) Clone(clock *int64, rnd *rand.Rand) *Broker { return b.clone(clock, rnd, false) }

// Snapshot is [Broker.Clone] for the world's timeline: a copy nothing will
// run or change, only clone again to restore it. Of a replica nothing
// changed since the broker's last snapshot (Partition.kept) it holds the
// same copy as that snapshot, and so of its file system's files and
// directories (vfs.MemFS.Snapshot), so that a snapshot of a broker of many
// idle partitions copies the few that changed; it holds the broker's
// sorted partitions, which the broker copies before it changes them.
func (b *Broker) Snapshot(clock *int64, rnd *rand.Rand) *Broker { return b.clone(clock, rnd, true) }

func (b *Broker) clone(clock *int64, rnd *rand.Rand, snapshot bool) *Broker {
	c := *b
	if snapshot {
		c.fs = b.fs.Snapshot()
	} else {
		c.fs = b.fs.Clone()
	}
	if b.replicas != nil {
		c.replicas = make(map[tp]*Partition, len(b.replicas))
		for k, p := range b.replicas {
			switch {
			case !snapshot:
				c.replicas[k] = p.clone(&c, clock, rnd)
			case p.kept != nil:
				c.replicas[k] = p.kept
			default:
				q := p.clone(&c, clock, rnd)
				p.kept, c.replicas[k] = q, q
			}
		}
	}
	if snapshot {
		c.order, c.hws, b.orderShared, b.hwsShared = b.order, b.hws, true, true // copied by b before they change
	} else {
		c.order, c.hws, c.orderShared, c.hwsShared = slices.Clone(b.order), slices.Clone(b.hws), false, false
	}
	c.sessionPeers, c.goneHeld = slices.Clone(b.sessionPeers), slices.Clone(b.goneHeld)
	c.cleanerOffsets, c.cleanerSeen = maps.Clone(b.cleanerOffsets), maps.Clone(b.cleanerSeen)
	c.uncleanable = slices.Clone(b.uncleanable)
	c.compacted = slices.Clone(b.compacted)
	// recoveryCheckpointed is replaced whole, never changed in place: shared
	c.deleted = slices.Clone(b.deleted)
	if b.txn != nil {
		c.txn = b.txn.Clone()
	}
	c.markers = b.markers.clone()
	c.verify = b.verify.clone()
	c.timers, c.due, c.changed = slices.Clone(b.timers), maps.Clone(b.due), slices.Clone(b.changed)
	c.beat.stale = slices.Clone(b.beat.stale) // beat.known is never changed in place: shared
	c.ckptBuf = nil                           // b's, written again by its next checkpoint
	if b.coord != nil {
		cs := *b.coord
		cs.c = b.coord.c.Clone(logOffsetStore{b: &c})
		cs.cg = b.coord.cg.Clone(logOffsetStore{b: &c})
		cs.parked = make(map[int64][]group.Outgoing, len(b.coord.parked))
		for k, out := range b.coord.parked {
			cs.parked[k] = slices.Clone(out)
		}
		cs.awaiting = maps.Clone(b.coord.awaiting)
		cs.storing = maps.Clone(b.coord.storing)
		c.coord = &cs
	}
	return &c
}

// clone copies the replica for broker c (a clone of its broker), reading
// the time at clock and drawing from rnd (c's world's): a snapshot's copy
// bound to another broker's copy is bound to c's when cloned again.
func (p *Partition) clone(c *Broker, clock *int64, rnd *rand.Rand) *Partition {
	q := *p
	q.kept = nil
	q.Log = p.Log.Clone(c.fs, clock, rnd)
	var rlog replica.Log = q.Log
	if c.cfg.Parts.ValidateBatches {
		rlog = validatingLog{q.Log}
	}
	q.Node = p.Node.Clone(rlog)
	return &q
}

// ownOrder returns the broker's sorted partitions to change in place, and
// makes their high watermarks its own too (ownHWs), copied first if its
// last snapshot holds them. It is kept out of line (a partition comes or
// goes seldom; the WebAssembly world weighs every inlined copy).
//
//go:noinline
func (b *Broker) ownOrder() []tp {
	if b.orderShared {
		b.order, b.orderShared = slices.Clone(b.order), false
	}
	b.ownHWs()
	return b.order
}

// ownHWs returns the high watermarks of the broker's partitions (hws) to
// change in place, copied first if its last snapshot holds them.
func (b *Broker) ownHWs() []int64 {
	if b.hwsShared {
		b.hws, b.hwsShared = slices.Clone(b.hws), false
	}
	return b.hws
}
