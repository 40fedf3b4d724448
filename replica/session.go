package replica

import (
	"math"
	"slices"
)

// A leader under [RuleSet.FetchSessions] keeps a follower's fetch that
// found nothing in their incremental fetch session (KIP-227) instead of
// answering it empty at the end of its wait: the fetch is held. Kafka's
// follower broker sends one fetch for all the partitions it follows from
// a leader's broker; once a partition is in the session and has nothing
// new, neither the requests (FetchSessionHandler.java sends only the
// partitions whose fetch offset changed) nor the answers
// (FetchSession.scala's IncrementalFetchContext.updateAndGenerateResponseData
// sends only the partitions with records or a changed high watermark, log
// start offset or last stable offset) carry it, and the delayed fetch is
// woken only by new data (Kafka 3.7's DelayedFetch). Here a replica's
// fetches are its own messages; holding the fetch is what makes an idle
// partition cost nothing per fetch.
//
// A fetch is held only when answering it would tell the follower nothing
// and asking again would change nothing at the leader: it found the log
// end, the follower already has the leader's high watermark (the one of
// the last answer it was sent), and it is in the committed ISR with no
// change in flight (a follower outside the ISR asks again to join it).
// While held, the follower counts as fetching at the log end at every
// moment (its last fetch and catch-up times read now), as Kafka's leader
// updates every session partition's follower state at each fetch
// (IncrementalFetchContext.foreachPartition); and the leader skips its ISR
// shrink check while every other ISR member is held, which keeps all of
// them.
//
// The held fetch is answered, with the high watermark of that moment,
// when the partition has something: an append answers it at once (as
// before); a new high watermark, an ISR change or [Node.EndFetchSessions]
// release it to be answered at the end of its current wait period (its
// wait restarting every replica.fetch.wait.max.ms from when it was
// parked), as the session's next broker-level answer would carry it; a
// lost leadership answers it with the error. The follower then fetches
// again from where it is.

// heldFetchTimeMs is the deadline of a held fetch: none.
const heldFetchTimeMs = math.MaxInt64

// sessions reports whether this leader holds fetches in sessions.
func (n *Node) sessions() bool { return n.cfg.Rules.FetchSessions() && !n.cfg.FullFetches }

// holds reports whether the leader keeps p, whose wait is over, in its
// session rather than answer it empty.
func (n *Node) holds(p parkedFetch) bool {
	from := p.req.From
	f := n.lead.followers[from]
	return n.sessions() && !p.released && f != nil && f.sentHW == n.hw && n.lead.pendingISR == nil &&
		p.req.FetchOffset == n.log.LogEndOffset() && slices.Contains(n.isr, from)
}

// hold keeps the parked fetch at i in the session and tells its follower.
func (n *Node) hold(i int) {
	p := &n.lead.parkedFetches[i]
	p.held, p.heldMs, p.deadlineMs = true, n.now, heldFetchTimeMs
	n.send(Message{Type: MsgFetchHeld, To: p.req.From, CorrelationID: p.req.CorrelationID,
		CurrentLeaderEpoch: n.leaderEpoch, FetchOffset: p.req.FetchOffset})
}

// settleHeld brings the followers whose fetch is held up to now: each
// fetched at the log end at this moment.
func (n *Node) settleHeld() { n.settleHeldAt(NoLeader, n.now) }

// settleHeldAt brings the followers (follower from; any when from is
// [NoLeader]) whose fetch is held up to atMs, when they were last known to
// be there: each fetched at the log end at that moment, if it came after
// the hold began.
func (n *Node) settleHeldAt(from int32, atMs int64) {
	for _, p := range n.lead.parkedFetches {
		if !p.held || from != NoLeader && p.req.From != from {
			continue
		}
		at := lastCycleMs(p, atMs)
		if f := n.lead.followers[p.req.From]; f != nil && at >= p.heldMs && at > f.lastFetchMs {
			f.lastFetchMs, f.lastCaughtUpMs, f.leaderLEOAtLastFetch = at, at, n.log.LogEndOffset()
		}
	}
}

// lastCycleMs is when, at or before atMs, the session last fetched the
// held fetch p: the follower's fetches go every replica.fetch.wait.max.ms
// from when p was parked, each ending its wait with nothing.
func lastCycleMs(p parkedFetch, atMs int64) int64 {
	w := p.req.MaxWaitMs
	if w <= 0 || atMs < p.parkedMs {
		return atMs
	}
	return p.parkedMs + (atMs-p.parkedMs)/w*w
}

// releaseHeld ends the holding of the held fetches of follower from (any
// follower when from is [NoLeader]), last known to fetch at atMs: each is
// answered at the end of its current wait period and is not held again.
func (n *Node) releaseHeld(from int32, atMs int64) {
	n.alignShrinkCheck()
	n.settleHeldAt(from, atMs)
	for i := range n.lead.parkedFetches {
		p := &n.lead.parkedFetches[i]
		if !p.held || from != NoLeader && p.req.From != from {
			continue
		}
		p.release(n.now)
	}
}

// release ends the holding of p at nowMs: it is answered at the end of its
// current wait period, when the follower's full fetches would have had
// their next answer, and is not held again.
func (p *parkedFetch) release(nowMs int64) {
	p.held, p.released = false, true
	p.deadlineMs = nowMs
	if w := p.req.MaxWaitMs; w > 0 && nowMs >= p.parkedMs {
		p.deadlineMs = p.parkedMs + ((nowMs-p.parkedMs)/w+1)*w
	}
}

// allOthersHeld reports whether every ISR member other than this leader
// has its fetch held (true when the ISR is the leader alone): the ISR
// shrink check then keeps everyone.
func (n *Node) allOthersHeld() bool {
	for _, id := range n.isr {
		if id != n.cfg.ID && !n.heldFrom(id) {
			return false
		}
	}
	return true
}

// alignShrinkCheck moves the last ISR shrink check over the checks skipped
// while every other ISR member is held (NextTickMs leaves them out): each
// would have kept everyone, and the next one keeps its period. Called
// before anything ends that state.
func (n *Node) alignShrinkCheck() {
	every := n.cfg.ReplicaLagTimeMaxMs / 2
	if n.role != RoleLeader || every <= 0 || n.now-n.lead.lastShrinkCheckMs < every || !n.allOthersHeld() {
		return
	}
	n.lead.lastShrinkCheckMs += (n.now - n.lead.lastShrinkCheckMs) / every * every
}

// heldFrom reports whether follower id's fetch is held.
func (n *Node) heldFrom(id int32) bool {
	for _, p := range n.lead.parkedFetches {
		if p.held && p.req.From == id {
			return true
		}
	}
	return false
}

// handleFetchHeld is the follower's side of [MsgFetchHeld]: its fetch
// stays outstanding, without the request timeout (the session's
// broker-level fetches go on), until the leader answers it or
// [Node.EndFetchSessions].
func (n *Node) handleFetchHeld(m Message) {
	f := &n.follow
	if n.role != RoleFollower || f.state != FetchFetching || m.From != n.leaderID ||
		m.CorrelationID != f.outstanding || m.FetchOffset != n.log.LogEndOffset() {
		return
	}
	f.held, f.heldMs = true, n.now
}

// EndFetchSessions ends the incremental fetch sessions this replica has
// with broker peer ([NoLeader]: with any broker), whose connection was
// last known up at lostMs, as a lost connection or
// a restarted broker ends Kafka's (a failed fetch makes the follower's
// FetchSessionHandler start over with a full fetch; the leader's
// FetchSessionCache entry is dropped): a leader answers the fetches it
// held for peer at the end of their wait period (peer's follower having
// fetched at the log end until lostMs, if its fetch was held by then),
// and a follower whose held fetch went to peer waits for it again with
// its request timeout (replica.socket.timeout.ms) from the session's last
// fetch before lostMs (one every replica.fetch.wait.max.ms since the hold). The caller tells the replica
// when a peer is lost (the replica does not watch connections); the
// answer of NextTickMs changes.
func (n *Node) EndFetchSessions(peer int32, lostMs int64) {
	lostMs = min(lostMs, n.now)
	switch n.role {
	case RoleLeader:
		n.releaseHeld(peer, lostMs)
	case RoleFollower:
		if f := &n.follow; peer == NoLeader || peer == n.leaderID {
			f.inSession = false
			if f.held {
				// the session's last fetch went at most a wait before
				f.held, f.sentMs = false, max(f.sentMs, lostMs-max(lostMs-f.heldMs, 0)%max(n.cfg.ReplicaFetchWaitMaxMs, 1))
			}
		}
	}
}

// HeldFetches is how many follower fetches this leader holds in sessions
// (0 for a follower), and FetchHeld whether this follower's fetch is
// held.
func (n *Node) HeldFetches() int {
	c := 0
	for _, p := range n.lead.parkedFetches {
		if p.held {
			c++
		}
	}
	return c
}

// FetchHeld reports whether this follower's outstanding fetch is held in
// its leader's session.
func (n *Node) FetchHeld() bool { return n.role == RoleFollower && n.follow.held }
