package cluster

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/replica"
)

// ineligibleReplica is Kafka's INELIGIBLE_REPLICA (107): an AlterPartition
// proposing a fenced broker for the ISR.
const ineligibleReplica replica.ErrorCode = 107

// controller is the KRaft-style controller (R6): broker registrations,
// heartbeats and fencing, partition states, elections, AlterPartition. It
// runs on node [ControllerID], which never fails.
type controller struct {
	brokers         []ctlBroker // index id-1
	parts           map[partitionKey]*partitionState
	order           []partitionKey
	nextBrokerEpoch int64
}

// ctlBroker is the controller's view of one broker.
type ctlBroker struct {
	registered    bool
	fenced        bool
	epoch         int64 // broker epoch, new on every registration
	incarnation   int
	lastHeartbeat int64
}

// partitionState is the controller's record of a partition (R1).
type partitionState struct {
	replicas       []int32
	isr            []int32
	leader         int32
	leaderEpoch    int32
	partitionEpoch int32
}

func (c *controller) init(brokers int) {
	c.brokers = make([]ctlBroker, brokers)
	for i := range c.brokers {
		c.brokers[i].fenced = true
	}
	c.parts = map[partitionKey]*partitionState{}
}

func (c *controller) unfenced(id int32) bool {
	return id >= 1 && int(id) <= len(c.brokers) && c.brokers[id-1].registered && !c.brokers[id-1].fenced
}

func (p *partitionState) leaderAndISR() replica.LeaderAndISR {
	return replica.LeaderAndISR{Leader: p.leader, LeaderEpoch: p.leaderEpoch, PartitionEpoch: p.partitionEpoch,
		ISR: slices.Clone(p.isr), Replicas: slices.Clone(p.replicas)}
}

// addPartition creates a partition: the first live replica leads, the live
// replicas form the ISR, leader epoch 0.
func (w *World) addPartition(tp partitionKey, replicas []int32) {
	p := &partitionState{replicas: slices.Clone(replicas), leader: replica.NoLeader}
	for _, id := range replicas {
		if w.ctl.unfenced(id) {
			p.isr = append(p.isr, id)
		}
	}
	if len(p.isr) == 0 {
		p.isr = []int32{replicas[0]}
	}
	if w.ctl.unfenced(p.isr[0]) {
		p.leader = firstIn(replicas, p.isr)
	}
	p.isr = sortedIDs(p.isr)
	w.ctl.parts[tp] = p
	w.ctl.order = append(w.ctl.order, tp)
	slices.SortFunc(w.ctl.order, comparePartitions)
	w.record(EventController, 0, &tp, "created: replicas %s, leader %d, epoch 0, isr %s", replica.FormatIDs(replicas), p.leader, replica.FormatIDs(p.isr))
	w.publish(tp, p)
}

// firstIn returns the first of order that is in set.
func firstIn(order, set []int32) int32 {
	for _, id := range order {
		if slices.Contains(set, id) {
			return id
		}
	}
	return replica.NoLeader
}

// publish sends the partition's state to every replica (the metadata log's
// sendPartitionState sends broker id a partition's state, addressed to the
// incarnation the controller has registered: a broker that restarted and is
// not registered again drops it, as a KRaft broker acts on no metadata
// before its registration is accepted and it has caught up
// (BrokerLifecycleManager's initial catch-up, BrokerServer.startup, 3.7.0).
// Otherwise a leader restarted while no controller ran would lead again in
// its old epoch with the HW of its checkpoint.
func (w *World) sendPartitionState(id int32, tp partitionKey, st replica.LeaderAndISR) {
	inc := -1 // not registered: never delivered
	if cb := w.ctl.brokers[id-1]; cb.registered {
		inc = cb.incarnation
	}
	w.send(netsim.Envelope{From: ControllerID, To: id, Kind: netsim.KindLeaderAndISR, TP: tp, State: st, ToIncarnation: inc})
}

// partition record reaching each broker).
func (w *World) publish(tp partitionKey, p *partitionState) {
	st := p.leaderAndISR()
	for _, id := range p.replicas {
		w.sendPartitionState(id, tp, st)
	}
}

// change applies a new leader and ISR to a partition with the epoch rules
// of the era, records and publishes it.
func (w *World) change(tp partitionKey, p *partitionState, leader int32, isr []int32, why string) {
	isr = sortedIDs(isr)
	if leader == p.leader && slices.Equal(isr, p.isr) {
		return
	}
	switch {
	case leader != p.leader && !w.cfg.zkEra():
		p.leaderEpoch++ // KRaft: every change of the leader field, to and from none
	case leader != p.leader && leader != replica.NoLeader:
		p.leaderEpoch++ // ZooKeeper era: every election
	case leader == p.leader && w.cfg.zkEra() && len(isr) < len(p.isr):
		p.leaderEpoch++ // ZooKeeper era: a controller-side ISR shrink
	}
	p.partitionEpoch++
	p.leader, p.isr = leader, isr
	w.record(EventController, 0, &tp, "%s: leader %d, epoch %d, isr %s", why, leader, p.leaderEpoch, replica.FormatIDs(isr))
	w.publish(tp, p)
}

// deliverToController handles a message to the controller.
func (w *World) deliverToController(e *netsim.Envelope) {
	if e.From < 1 || int(e.From) > len(w.brokers) {
		return
	}
	cb := &w.ctl.brokers[e.From-1]
	switch e.Kind {
	case netsim.KindRegister:
		w.register(e.From, e.Incarnation)
	case netsim.KindHeartbeat:
		if !cb.registered || cb.incarnation != e.Incarnation {
			// A broker retries its registration until the controller has
			// it: a heartbeat from an unknown incarnation stands for that.
			w.register(e.From, e.Incarnation)
			return
		}
		cb.lastHeartbeat = w.now
		if cb.fenced {
			w.unfence(e.From, "heartbeat from a fenced live broker")
		}
		w.resendStale(e.From, e.Known)
	case netsim.KindShutdown:
		if cb.registered && cb.incarnation == e.Incarnation && !cb.fenced {
			w.fence([]int32{e.From}, "controlled shutdown")
		}
	case netsim.KindAlterPartition:
		w.alterPartition(e.From, e.TP, e.Alter)
	}
}

// register is a broker's registration with a new broker epoch (KRaft's BrokerRegistration). A
// KRaft broker always registers fenced, so an unfenced one restarting fast
// is fenced first; a ZooKeeper-era controller that has not noticed the
// restart keeps the broker where it was (the KIP-101 scenarios rely on it).
func (w *World) register(id int32, incarnation int) {
	cb := &w.ctl.brokers[id-1]
	if cb.registered && !cb.fenced && !w.cfg.zkEra() {
		w.fence([]int32{id}, "re-registration")
	}
	w.ctl.nextBrokerEpoch++
	cb.registered, cb.incarnation, cb.epoch, cb.lastHeartbeat = true, incarnation, w.ctl.nextBrokerEpoch, w.now
	w.record(EventController, id, nil, "broker %d registered with broker epoch %d", id, cb.epoch)
	if cb.fenced {
		w.unfence(id, "registration")
	}
	for _, tp := range w.ctl.order {
		if p := w.ctl.parts[tp]; slices.Contains(p.replicas, id) {
			w.sendPartitionState(id, tp, p.leaderAndISR())
		}
	}
}

// resendStale sends a broker the partition states its replicas have not
// seen (messages lost to a network partition).
func (w *World) resendStale(id int32, known map[partitionKey][2]int32) {
	for _, tp := range w.ctl.order {
		p := w.ctl.parts[tp]
		k, ok := known[tp]
		if ok && k != [2]int32{p.leaderEpoch, p.partitionEpoch} {
			w.sendPartitionState(id, tp, p.leaderAndISR())
		}
	}
}

// unfence makes a broker eligible again and elects it where a partition
// has no leader.
func (w *World) unfence(id int32, why string) {
	w.ctl.brokers[id-1].fenced = false
	w.record(EventController, id, nil, "unfenced broker %d (%s)", id, why)
	w.electLeaderless()
}

// electLeaderless elects a leader for every partition without one: the
// first ISR member in assignment order that is unfenced, else (unclean
// election enabled) the first unfenced replica.
func (w *World) electLeaderless() {
	for _, tp := range w.ctl.order {
		p := w.ctl.parts[tp]
		if p.leader != replica.NoLeader {
			continue
		}
		var live []int32
		for _, id := range p.isr {
			if w.ctl.unfenced(id) {
				live = append(live, id)
			}
		}
		if leader := firstIn(p.replicas, live); leader != replica.NoLeader {
			w.change(tp, p, leader, live, "elected from the ISR")
			continue
		}
		if !w.uncleanLeaderElection(tp.Topic) {
			continue
		}
		for _, id := range p.replicas {
			if w.ctl.unfenced(id) {
				w.change(tp, p, id, []int32{id}, "unclean election")
				break
			}
		}
	}
}

// tickController fences brokers whose session expired, all at once.
func (w *World) tickController() {
	var expired []int32
	for i, cb := range w.ctl.brokers {
		if cb.registered && !cb.fenced && w.now-cb.lastHeartbeat > w.cfg.BrokerSessionTimeoutMs {
			expired = append(expired, int32(i+1))
		}
	}
	if len(expired) > 0 {
		w.fence(expired, "session expired")
	}
}

// fence fences brokers: they leave every ISR, except that an ISR
// never empties; partitions they led elect a new leader or go offline.
func (w *World) fence(ids []int32, why string) {
	for _, id := range ids {
		w.ctl.brokers[id-1].fenced = true
		w.record(EventController, id, nil, "fenced broker %d (%s)", id, why)
	}
	for _, tp := range w.ctl.order {
		p := w.ctl.parts[tp]
		isr := slices.DeleteFunc(slices.Clone(p.isr), func(id int32) bool { return slices.Contains(ids, id) })
		if len(isr) == 0 {
			isr = p.isr // the last ISR members stay: an ISR never empties
		}
		if p.leader != replica.NoLeader && !slices.Contains(ids, p.leader) {
			w.change(tp, p, p.leader, isr, "fenced replicas removed from the ISR")
			continue
		}
		var live []int32
		for _, id := range isr {
			if w.ctl.unfenced(id) {
				live = append(live, id)
			}
		}
		if leader := firstIn(p.replicas, live); leader != replica.NoLeader {
			w.change(tp, p, leader, isr, "leader fenced, elected from the ISR")
		} else {
			w.change(tp, p, replica.NoLeader, isr, "offline, last replica standing")
		}
	}
	w.electLeaderless()
}

// alterPartition handles a leader's ISR proposal (AlterPartition).
func (w *World) alterPartition(from int32, tp partitionKey, a replica.AlterPartition) {
	p := w.ctl.parts[tp]
	resp := replica.Message{Type: replica.MsgAlterPartitionResponse, To: from, CorrelationID: a.CorrelationID}
	switch {
	case p == nil:
		return
	case p.leader != from || a.LeaderEpoch != p.leaderEpoch:
		resp.Error = replica.FencedLeaderEpoch
	case a.PartitionEpoch != p.partitionEpoch:
		resp.Error = replica.InvalidUpdateVersion
	case !w.allEligible(p, a.ISR):
		resp.Error = ineligibleReplica
	}
	resp.LeaderEpoch = a.LeaderEpoch
	if resp.Error == replica.None {
		p.isr = sortedIDs(a.ISR)
		p.partitionEpoch++
		w.record(EventController, from, &tp, "AlterPartition accepted: isr %s, partition epoch %d", replica.FormatIDs(p.isr), p.partitionEpoch)
		resp.ISR, resp.PartitionEpoch = slices.Clone(p.isr), p.partitionEpoch
		for _, id := range p.replicas {
			if id != from {
				w.sendPartitionState(id, tp, p.leaderAndISR())
			}
		}
	} else {
		w.record(EventController, from, &tp, "AlterPartition %s refused: %s", replica.FormatIDs(a.ISR), resp.Error)
	}
	w.send(netsim.Envelope{From: ControllerID, To: from, Kind: netsim.KindReplica, TP: tp, Msg: resp})
}

// allEligible reports whether every proposed member may be in the ISR: an
// assigned replica, and under KRaft an unfenced broker.
func (w *World) allEligible(p *partitionState, isr []int32) bool {
	for _, id := range isr {
		if !slices.Contains(p.replicas, id) || !w.cfg.zkEra() && !w.ctl.unfenced(id) {
			return false
		}
	}
	return len(isr) > 0
}

// PartitionLeader returns the controller's leader for a partition
// ([replica.NoLeader] if none or unknown).
func (w *World) PartitionLeader(topic string, partition int32) int32 {
	if p := w.ctl.parts[partitionKey{Topic: topic, Partition: partition}]; p != nil {
		return p.leader
	}
	return replica.NoLeader
}

func (p *partitionState) String() string {
	return fmt.Sprintf("leader=%d e=%d isr=%s", p.leader, p.leaderEpoch, replica.FormatIDs(p.isr))
}
