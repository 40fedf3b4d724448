package broker

import (
	"cmp"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// A broker's replicas hold and have held follower fetches in incremental
// fetch sessions (KIP-227; replica.MsgFetchHeld): an idle partition then
// costs its brokers nothing per replica.fetch.wait.max.ms. A session lives
// on the connection between two brokers, which the replicas do not see:
// the broker watches, at each tick, the peers it has sessions with, and
// when one is gone (its process ended or restarted, or the link between
// them is cut) it ends the sessions with it (replica.Node.EndFetchSessions),
// as a failed fetch ends Kafka's (the follower's FetchSessionHandler starts
// over with a full fetch; the leader's FetchSessionCache entry goes
// unused). Watching costs the peers, not the partitions; ending walks the
// broker's replicas once.

// sessionPeer is a broker this one has fetch sessions with, and the
// incarnation of its process they were made with.
type sessionPeer struct {
	id          int32
	incarnation int
}

// heldSent takes the MsgFetchHeld m the replica s sends: the fetch stays
// open on its connection (netsim.Network's requests), so that the answer
// that ends the hold reaches the incarnation that asked; a follower that
// is gone already, or cut off, ends the session at once, without its
// follower counting as fetching while it was held.
func (b *Broker) heldSent(env Env, s *Partition, e *netsim.Envelope) {
	inc := env.CloseRequest(b.id, e.To, s.TP, e.Msg.CorrelationID)
	e.ToIncarnation = inc
	if inc < 0 || env.BrokerGone(e.To, inc) || env.Cut(b.id, e.To) {
		b.goneHeld = append(b.goneHeld, goneHeld{tp: s.TP, peer: e.To})
		return
	}
	env.OpenRequest(b.id, e.To, s.TP, e.Msg.CorrelationID, inc)
	b.watchPeer(e.To, inc)
}

// goneHeld is a replica that held a fetch of a follower already gone.
type goneHeld struct {
	tp   tp
	peer int32
}

// heldReceived notes that this follower's fetch to peer is held.
func (b *Broker) heldReceived(env Env, peer int32) {
	b.watchPeer(peer, env.BrokerIncarnation(peer))
}

// watchPeer notes a session with incarnation inc of broker peer, keeping
// b.sessionPeers sorted by id.
func (b *Broker) watchPeer(peer int32, inc int) {
	i, found := slices.BinarySearchFunc(b.sessionPeers, peer, func(p sessionPeer, id int32) int { return cmp.Compare(p.id, id) })
	if found {
		b.sessionPeers[i].incarnation = inc
		return
	}
	b.sessionPeers = slices.Insert(b.sessionPeers, i, sessionPeer{id: peer, incarnation: inc})
}

// watchSessions ends the fetch sessions with the peers that are gone, and
// those whose follower was gone when its fetch was held.
func (b *Broker) watchSessions(env Env) {
	for _, g := range b.goneHeld {
		if s := b.replicas[g.tp]; s != nil {
			b.endSessionsOf(env, s, g.peer, -1)
		}
	}
	b.goneHeld = nil
	for i := 0; i < len(b.sessionPeers); {
		p := b.sessionPeers[i]
		if !env.BrokerGone(p.id, p.incarnation) && !env.Cut(b.id, p.id) {
			i++
			continue
		}
		b.sessionPeers = slices.Delete(b.sessionPeers, i, i+1)
		for _, k := range b.order {
			b.endSessionsOf(env, b.replicas[k], p.id, env.Now())
		}
	}
}

// endSessionsOf ends replica s's fetch sessions with peer, last known up
// at lostMs.
func (b *Broker) endSessionsOf(env Env, s *Partition, peer int32, lostMs int64) {
	if s.Node.HeldFetches() == 0 && !s.Node.FetchHeld() {
		return
	}
	s.changing()
	mark := markOf(s)
	s.Node.SetNow(env.Now())
	s.Node.EndFetchSessions(peer, lostMs)
	b.schedule(s, env.Now())
	b.touchIfChanged(s, mark)
}
