package netsim

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Network is a FIFO queue of messages and a set of cut links. Delivery is
// in send order; a message on a cut link is dropped when its turn comes
// (the router asks [Network.Cut]).
type Network struct {
	queue []Envelope
	head  int
	cuts  map[[2]int32]bool
	// pending maps a follower request (leader, follower, partition,
	// correlation id) to the follower's incarnation, so that the answer
	// reaches only it.
	pending map[requestKey]int
}

type requestKey struct {
	leader, follower int32
	tp               kafkalog.TopicPartition
	corr             int64
}

// Push queues e behind every message in flight. When the queue is full
// and at least half of it is delivered messages, the messages in flight
// move to its front first, so that a network never empty (a busy world
// always has a message on its way) reuses its queue instead of growing it
// by the messages it ever carried.
func (n *Network) Push(e Envelope) {
	if len(n.queue) == cap(n.queue) && n.head >= len(n.queue)/2 && n.head > 0 {
		k := copy(n.queue, n.queue[n.head:])
		clear(n.queue[k:])
		n.queue, n.head = n.queue[:k], 0
	}
	n.queue = append(n.queue, e)
}

// Len returns how many messages are in flight.
func (n *Network) Len() int { return len(n.queue) - n.head }

// Due reports whether the oldest message in flight has arrived by nowMs.
func (n *Network) Due(nowMs int64) bool {
	return n.head < len(n.queue) && n.queue[n.head].DueMs <= nowMs
}

// Pop takes the oldest message in flight.
func (n *Network) Pop() (Envelope, bool) {
	if n.head == len(n.queue) {
		return Envelope{}, false
	}
	e := n.queue[n.head]
	n.queue[n.head] = Envelope{}
	n.head++
	if n.head == len(n.queue) {
		n.queue, n.head = n.queue[:0], 0
	}
	return e, true
}

// InFlight returns the messages in flight, oldest first. The caller must
// not modify them.
func (n *Network) InFlight() []Envelope { return n.queue[n.head:] }

// Cut reports whether the link from a to b is cut.
func (n *Network) Cut(a, b int32) bool { return n.cuts[[2]int32{a, b}] }

// Partition cuts every link between a node of a and a node of b, both ways.
func (n *Network) Partition(a, b []int32) {
	if n.cuts == nil {
		n.cuts = map[[2]int32]bool{}
	}
	for _, x := range a {
		for _, y := range b {
			if x != y {
				n.cuts[[2]int32{x, y}], n.cuts[[2]int32{y, x}] = true, true
			}
		}
	}
}

// Heal restores every link.
func (n *Network) Heal() { n.cuts = nil }

// CutLinks lists the cut links, sorted, each once (a < b).
func (n *Network) CutLinks() [][2]int32 {
	var out [][2]int32
	for l := range n.cuts {
		if l[0] < l[1] {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	return out
}

// matches reports whether e goes from a node in from to a node in to
// (nil matches any).
func matches(e *Envelope, from, to []int32) bool {
	return (from == nil || slices.Contains(from, e.From)) && (to == nil || slices.Contains(to, e.To))
}

// MoveFirst moves the oldest message matching from/to to the head of the
// queue; false if there is none.
func (n *Network) MoveFirst(from, to []int32) bool {
	q := n.queue[n.head:]
	for i := range q {
		if matches(&q[i], from, to) {
			e := q[i]
			copy(q[1:i+1], q[:i])
			q[0] = e
			return true
		}
	}
	return false
}

// Drop removes the messages in flight from a node in from to a node in to
// (nil: any), and returns how many.
func (n *Network) Drop(from, to []int32) int {
	q := n.queue[n.head:]
	kept := q[:0]
	for i := range q {
		if !matches(&q[i], from, to) {
			kept = append(kept, q[i])
		}
	}
	dropped := len(q) - len(kept)
	clear(q[len(kept):])
	n.queue = append(n.queue[:n.head], kept...)
	return dropped
}

// OpenRequest notes that follower, in incarnation inc, sent leader a
// request about tp with correlation id corr (a fetch or an
// OffsetsForLeaderEpoch): its answer is for that incarnation only.
func (n *Network) OpenRequest(leader, follower int32, tp kafkalog.TopicPartition, corr int64, inc int) {
	if n.pending == nil {
		n.pending = map[requestKey]int{}
	}
	n.pending[requestKey{leader: leader, follower: follower, tp: tp, corr: corr}] = inc
}

// CloseRequest returns the incarnation of the follower whose request the
// answer from leader to follower about tp with correlation id corr
// answers, and forgets the request; -1 when no such request is known (the
// answer is never delivered).
func (n *Network) CloseRequest(leader, follower int32, tp kafkalog.TopicPartition, corr int64) int {
	key := requestKey{leader: leader, follower: follower, tp: tp, corr: corr}
	inc, ok := n.pending[key]
	delete(n.pending, key)
	if !ok || inc == 0 {
		return -1
	}
	return inc
}

// Clone returns an independent copy of the network: the queue, the cut
// links and the open requests. The envelopes' contents are shared: they
// are not changed once sent.
func (n *Network) Clone() *Network {
	return &Network{queue: slices.Clone(n.queue[n.head:]), cuts: maps.Clone(n.cuts), pending: maps.Clone(n.pending)}
}
