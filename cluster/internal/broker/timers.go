package broker

import (
	"container/heap"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A broker ticks a replica only when the replica has something to do
// (replica.Node.NextTickMs: a parked fetch's or produce's wait over, the
// ISR shrink check, a follower's request timed out), as Kafka's
// purgatories fire only the operations whose timers expire and its
// replica fetchers fetch only the partitions that have something: a broker
// of ten thousand quiet partitions ticks at the cost of the few that are
// due. Before it hands a replica anything else it moves the replica's
// clock to the world's (wake), so that the replica reads the time as if
// it had been ticked at every step. Config.TickEveryReplica ticks every
// replica at every step instead, as before; the tests hold the two to the
// same outcome.

// timer is a replica's next tick: when, and which (its dueMs must still be
// when, else a later call moved it and this entry is stale).
type timer struct {
	ms int64
	tp tp
}

// timers is a min-heap of timers by time.
type timers []timer

func (h timers) Len() int           { return len(h) }
func (h timers) Less(i, j int) bool { return h[i].ms < h[j].ms }
func (h timers) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timers) Push(x any)        { *h = append(*h, x.(timer)) }
func (h *timers) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}

// schedule sets replica s's next tick from its node (now if it has output
// waiting), keeping a timer for it unless one at that time or earlier
// already exists. The timers live in the broker (timers, due), not in the
// replica, so that setting or firing one leaves the replica's snapshot copy
// standing.
func (b *Broker) schedule(s *Partition, now int64) {
	if b.cfg.TickEveryReplica {
		return
	}
	next := s.Node.NextTickMs()
	if s.Node.HasReady() {
		next = now
	}
	if due, ok := b.due[s.TP]; next == math.MaxInt64 || ok && next >= due {
		return // an earlier (or the same) timer fires first; that tick reschedules
	}
	if b.due == nil {
		b.due = make(map[tp]int64)
	}
	b.due[s.TP] = next
	heap.Push(&b.timers, timer{ms: next, tp: s.TP})
}

// dueReplicas returns the replicas whose tick is due at now, in partition
// order (every replica with Config.TickEveryReplica), and forgets their
// timers: their tick reschedules them.
func (b *Broker) dueReplicas(now int64) []*Partition {
	if b.cfg.TickEveryReplica {
		out := make([]*Partition, len(b.order))
		for i, k := range b.order {
			out[i] = b.replicas[k]
		}
		return out
	}
	var out []*Partition
	for len(b.timers) > 0 && b.timers[0].ms <= now {
		t := heap.Pop(&b.timers).(timer)
		if due, ok := b.due[t.tp]; ok && due == t.ms {
			delete(b.due, t.tp)
			if s := b.replicas[t.tp]; s != nil {
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(x, y *Partition) int { return metadata.ComparePartitions(x.TP, y.TP) })
	return out
}

// idleTick reports whether ticking replica s at now would only move its
// follower's clock: nothing is due (replica.Node.NextTickMs), no output
// waits, and a follower's status does not read the clock. Such a tick
// comes from a timer that outlived what it was set for (a follower's
// request timeout, set when it fetched, after the answer came and the
// leader held its next fetch in the session); the broker skips it rather
// than copy the replica into its next snapshot for nothing, as the
// follower moves its clock (SetNow) before anything else it is handed.
// The reference, Config.TickEveryReplica, ticks every replica anyway.
func (b *Broker) idleTick(s *Partition, now int64) bool {
	return !b.cfg.TickEveryReplica && s.Node.Progress().Role == replica.RoleFollower &&
		!s.Node.HasReady() && s.Node.NextTickMs() > now
}

// wake readies replica s for something other than its tick: its clock moved
// to now (a replica is ticked only when due) and the replica marked
// changed in this step. It returns the replica's node.
func (b *Broker) wake(s *Partition, now int64) *replica.Node {
	s.Node.SetNow(now)
	b.touch(s)
	return s.Node
}

// touch marks replica s changed in this step: its node was handed
// something, or its log was changed.
func (b *Broker) touch(s *Partition) {
	s.changing()
	if !s.changed || !s.beatStale {
		b.listChanged(s)
	}
}

// listChanged lists replica s among those changed in this step and among
// those whose epochs the next heartbeat looks at again (noteBeat), each
// once. It is kept out of line: touch, inlined on every path that changes
// a replica, then stays small (the WebAssembly world a first visit
// downloads weighs every inlined copy).
//
//go:noinline
func (b *Broker) listChanged(s *Partition) {
	if !s.changed {
		s.changed = true
		b.changed = append(b.changed, s.TP)
	}
	b.noteBeat(s)
}

// MarkChanged notes that replica s was changed from outside its broker
// (a tool or a test truncating its log): the end of the step looks at it
// as at a replica its broker changed.
func (b *Broker) MarkChanged(s *Partition) { b.touch(s) }

// TakeChanged returns the partitions of the replicas the broker changed
// (handed a message, a decision, a tick with work, a change of their log)
// since the last call, and forgets them: the world checks its invariants
// on those alone.
func (b *Broker) TakeChanged() []tp {
	out := b.changed
	for _, k := range out {
		if s := b.replicas[k]; s != nil {
			s.changing()
			s.changed = false
		}
	}
	b.changed = nil
	return out
}

// A replica handed a replication message or ticked is marked changed only
// if what the world's checker reads of it changed (its progress, its log's
// records and epoch cache: replicaMark): a follower's fetch parked at an
// idle leader, the leader's empty answer when it expires and the
// follower's next fetch change none of it, so that the checker looks at
// the partitions where something happened, not at every partition whose
// followers fetch (Kafka's incremental fetch sessions, KIP-227, likewise
// leave idle partitions out of a fetch's work).

// replicaMark is what the checker reads of a replica, comparable.
type replicaMark struct {
	st  replica.Progress
	log replicalog.Mark
}

func markOf(s *Partition) replicaMark {
	return replicaMark{st: s.Node.Progress(), log: s.Log.Mark()}
}

// touchIfChanged marks replica s changed if its mark is no longer was.
func (b *Broker) touchIfChanged(s *Partition, was replicaMark) {
	if markOf(s) != was {
		b.touch(s)
	}
}
