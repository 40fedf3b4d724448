package controller

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// ineligibleReplica is Kafka's INELIGIBLE_REPLICA (107): an AlterPartition
// proposing a fenced broker for the ISR.
const ineligibleReplica replica.ErrorCode = 107

type tp = kafkalog.TopicPartition

// Config is the controller's static configuration.
type Config struct {
	// Brokers is the number of brokers, ids 1..Brokers.
	Brokers int
	// ZooKeeperEra follows a ZooKeeper-era controller's epoch rules (the
	// world's rules before KRaft): see the package documentation.
	ZooKeeperEra bool
	// BrokerSessionTimeoutMs is broker.session.timeout.ms.
	BrokerSessionTimeoutMs int64
	// Combined runs the controller inside the brokers (KRaft combined
	// mode), every broker a voter; FailoverMs is how long the voters take
	// to elect a new active controller.
	Combined   bool
	FailoverMs int64
	// BrokerSettings are the brokers' topic configs, which a topic's own
	// lay over (unclean.leader.election.enable decides the elections).
	BrokerSettings topicconfig.Settings
	// ClientTopicSegmentBytes, when set, is the segment.bytes of a topic
	// a client creates without one of its own (cluster.Config's).
	ClientTopicSegmentBytes int64
	// EligibleLeaderReplicas keeps each partition's ELR and last known
	// leader and elects from them (KIP-966, Kafka 4.1's default; elr.go),
	// and detects unclean shutdowns by the broker epoch a registration
	// brings from the broker's clean shutdown marker.
	EligibleLeaderReplicas bool
	// StartMs is Kafka's clock at the world's start (the metadata log
	// starts then: a served world's clock is the wall clock's).
	StartMs int64
}

// Env is what the controller needs from the world around it.
type Env interface {
	event.Recorder
	// Now is the world's time in milliseconds.
	Now() int64
	// Send puts a message on the network.
	Send(e netsim.Envelope)
	// BrokerRunning reports whether broker id's process runs (the quorum's
	// voters are the brokers in combined mode), and BrokerState says what
	// it is ("running", "crashed"...), for the notes.
	BrokerRunning(id int32) bool
	BrokerState(id int32) string
}

// Controller is the KRaft-style controller.
type Controller struct {
	cfg             Config
	brokers         []broker // index id-1
	parts           map[tp]*partition
	order           []tp // sorted keys of parts
	nextBrokerEpoch int64
	topics          []metadata.Topic // sorted by name
	quorum          quorum
	changes         changes
	// epochs counts the changes of the partitions' epochs (resendStale).
	epochs uint64
	// gen is the generation of the partitions the controller may change
	// in place: a partition of an older one is shared with a clone, and
	// copied before it changes (own).
	gen uint64
}

// broker is the controller's view of one broker.
type broker struct {
	registered    bool
	fenced        bool
	epoch         int64 // broker epoch, new on every registration
	incarnation   int
	lastHeartbeat int64
	// upToDate is the last heartbeat's Known in which the controller found
	// nothing stale, at epochs version epochs (resendStale).
	upToDate upToDate
}

// partition is the controller's record of a partition. Its slices are
// replaced on a change, never changed in place (clones share them), and
// so is the record itself while a clone shares it (gen, own).
type partition struct {
	gen            uint64
	replicas       []int32
	isr            []int32
	leader         int32
	leaderEpoch    int32
	partitionEpoch int32
	// elr and lastELR are the Eligible Leader Replicas and the
	// LastKnownElr (the last known leader, while the partition has none),
	// kept only under [Config.EligibleLeaderReplicas] (elr.go).
	elr, lastELR []int32
}

// New returns a controller of cfg.Brokers brokers, none registered yet,
// with no topics; in combined mode broker 1's controller is active.
func New(cfg Config) *Controller {
	c := &Controller{cfg: cfg, brokers: make([]broker, cfg.Brokers), parts: map[tp]*partition{}}
	for i := range c.brokers {
		c.brokers[i].fenced = true
	}
	if cfg.Combined {
		c.quorum.active = 1
	}
	return c
}

// Unfenced reports whether broker id is registered and unfenced: alive, as
// the metadata cache lists it.
func (c *Controller) Unfenced(id int32) bool {
	return id >= 1 && int(id) <= len(c.brokers) && c.brokers[id-1].registered && !c.brokers[id-1].fenced
}

// Registration is the controller's record of a broker.
type Registration struct {
	// Registered and Fenced: a broker is alive when registered and not
	// fenced.
	Registered, Fenced bool
	// Epoch is its broker epoch, new at every registration; Incarnation
	// the process incarnation that registered.
	Epoch       int64
	Incarnation int
	// LastHeartbeatMs is when its last heartbeat (or registration)
	// reached the controller.
	LastHeartbeatMs int64
}

// Registration returns the controller's record of broker id.
func (c *Controller) Registration(id int32) Registration {
	b := c.brokers[id-1]
	return Registration{Registered: b.registered, Fenced: b.fenced, Epoch: b.epoch, Incarnation: b.incarnation, LastHeartbeatMs: b.lastHeartbeat}
}

// Status is "unfenced", "fenced" or "unregistered".
func (r Registration) Status() string {
	switch {
	case r.Registered && r.Fenced:
		return "fenced"
	case r.Registered:
		return "unfenced"
	}
	return "unregistered"
}

// Alive returns the brokers the controller counts as alive: registered and
// unfenced (KRaftMetadataCache lists those in Metadata).
func (c *Controller) Alive() []int32 {
	var out []int32
	for id := int32(1); int(id) <= len(c.brokers); id++ {
		if c.Unfenced(id) {
			out = append(out, id)
		}
	}
	return out
}

// Fenced returns the brokers registered and fenced, by id (DescribeCluster
// lists them when asked, KIP-1073).
func (c *Controller) Fenced() []int32 {
	var out []int32
	for id := int32(1); int(id) <= len(c.brokers); id++ {
		if b := c.brokers[id-1]; b.registered && b.fenced {
			out = append(out, id)
		}
	}
	return out
}

func (p *partition) leaderAndISR() replica.LeaderAndISR {
	return replica.LeaderAndISR{Leader: p.leader, LeaderEpoch: p.leaderEpoch, PartitionEpoch: p.partitionEpoch,
		ISR: slices.Clone(p.isr), Replicas: slices.Clone(p.replicas), ELR: slices.Clone(p.elr), LastKnownELR: slices.Clone(p.lastELR)}
}

// Partitions returns the partitions the controller keeps, sorted. The
// caller must not modify it.
func (c *Controller) Partitions() []tp { return c.order }

// Partition returns a partition's state as the controller last published
// it (leader, epochs, replicas, ISR; fresh slices), false when unknown.
func (c *Controller) Partition(k tp) (replica.LeaderAndISR, bool) {
	p := c.parts[k]
	if p == nil {
		return replica.LeaderAndISR{}, false
	}
	return p.leaderAndISR(), true
}

// Leader returns a partition's leader ([replica.NoLeader] if none or
// unknown).
func (c *Controller) Leader(k tp) int32 {
	if p := c.parts[k]; p != nil {
		return p.leader
	}
	return replica.NoLeader
}

// InISR reports whether broker id is in the partition's ISR.
func (c *Controller) InISR(k tp, id int32) bool {
	p := c.parts[k]
	return p != nil && slices.Contains(p.isr, id)
}

// AddPartition creates a partition: the first live replica leads, the
// live replicas form the ISR, leader epoch 0; it is published to its
// replicas.
func (c *Controller) AddPartition(env Env, k tp, replicas []int32) {
	p := &partition{gen: c.gen, replicas: slices.Clone(replicas), leader: replica.NoLeader}
	for _, id := range replicas {
		if c.Unfenced(id) {
			p.isr = append(p.isr, id)
		}
	}
	if len(p.isr) == 0 {
		p.isr = []int32{replicas[0]}
	}
	if c.Unfenced(p.isr[0]) {
		p.leader = firstIn(replicas, p.isr)
	}
	p.isr = sortedIDs(p.isr)
	c.parts[k] = p
	c.epochsChanged()
	i, _ := slices.BinarySearchFunc(c.order, k, metadata.ComparePartitions)
	c.order = slices.Insert(c.order, i, k)
	c.markChanged(k)
	env.Record(event.Controller, 0, &k, "created: replicas %s, leader %d, epoch 0, isr %s", replica.FormatIDs(replicas), p.leader, replica.FormatIDs(p.isr))
	c.publish(env, k, p)
}

// RemovePartition forgets a partition (its topic was deleted).
func (c *Controller) RemovePartition(k tp) {
	delete(c.parts, k)
	c.epochsChanged()
	c.markChanged(k)
	c.order = slices.DeleteFunc(c.order, func(o tp) bool { return o == k })
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

// sortedIDs returns the ids sorted, each once.
func sortedIDs(ids []int32) []int32 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// sendPartitionState sends broker id a partition's state, addressed to
// the incarnation the controller has registered: a broker that restarted
// and is not registered again drops it, as a KRaft broker acts on no
// metadata before its registration is accepted and it has caught up
// (BrokerLifecycleManager's initial catch-up, BrokerServer.startup, 3.7.0).
// Otherwise a leader restarted while no controller ran would lead again in
// its old epoch with the HW of its checkpoint.
func (c *Controller) sendPartitionState(env Env, id int32, k tp, st replica.LeaderAndISR) {
	inc := -1 // not registered: never delivered
	if b := c.brokers[id-1]; b.registered {
		inc = b.incarnation
	}
	env.Send(netsim.Envelope{From: netsim.Controller, To: id, Kind: netsim.KindLeaderAndISR, TP: k, State: st, ToIncarnation: inc})
}

// publish sends the partition's state to every replica (the partition
// record reaching each broker).
func (c *Controller) publish(env Env, k tp, p *partition) {
	st := p.leaderAndISR()
	for _, id := range p.replicas {
		c.sendPartitionState(env, id, k, st)
	}
}

// change applies a new leader and ISR to a partition with the epoch rules
// of the era, records and publishes it.
func (c *Controller) change(env Env, k tp, p *partition, leader int32, isr []int32, why string) {
	isr = sortedIDs(isr)
	if leader == p.leader && slices.Equal(isr, p.isr) {
		return
	}
	var newLeaderEpoch bool
	switch zk := c.cfg.ZooKeeperEra; {
	case leader != p.leader && !zk:
		newLeaderEpoch = true // KRaft: every change of the leader field, to and from none
	case leader != p.leader && leader != replica.NoLeader:
		newLeaderEpoch = true // ZooKeeper era: every election
	case leader == p.leader && zk && len(isr) < len(p.isr):
		newLeaderEpoch = true // ZooKeeper era: a controller-side ISR shrink
	}
	p = c.nextEpochs(k, p, newLeaderEpoch)
	p.leader, p.isr = leader, isr
	env.Record(event.Controller, 0, &k, "%s: leader %d, epoch %d, isr %s", why, leader, p.leaderEpoch, replica.FormatIDs(isr))
	c.publish(env, k, p)
}

// Step handles a message to the controller: a registration, a heartbeat,
// a controlled shutdown or an AlterPartition.
func (c *Controller) Step(env Env, e *netsim.Envelope) {
	if e.From < 1 || int(e.From) > len(c.brokers) {
		return
	}
	b := &c.brokers[e.From-1]
	switch e.Kind {
	case netsim.KindRegister:
		c.register(env, e.From, e.Incarnation, e.PreviousBrokerEpoch)
	case netsim.KindHeartbeat:
		if !b.registered || b.incarnation != e.Incarnation {
			// A broker retries its registration until the controller has
			// it: a heartbeat from an unknown incarnation stands for that.
			c.register(env, e.From, e.Incarnation, e.PreviousBrokerEpoch)
			return
		}
		b.lastHeartbeat = env.Now()
		if b.fenced {
			c.unfence(env, e.From, "heartbeat from a fenced live broker")
		}
		c.resendStale(env, e.From, e.Known)
	case netsim.KindShutdown:
		if b.registered && b.incarnation == e.Incarnation && !b.fenced {
			c.fence(env, []int32{e.From}, "controlled shutdown")
		}
	case netsim.KindAlterPartition:
		c.alterPartition(env, e.From, e.TP, e.Alter)
	}
}

// register is a broker's registration with a new broker epoch (KRaft's
// BrokerRegistration). A KRaft broker always registers fenced, so an
// unfenced one restarting fast is fenced first; a ZooKeeper-era controller
// that has not noticed the restart keeps the broker where it was (the
// KIP-101 scenarios rely on it). Under [Config.EligibleLeaderReplicas] a
// new incarnation whose previousEpoch (its clean shutdown marker's) is not
// the epoch it was registered with had an unclean shutdown
// (registeredAfterShutdown).
func (c *Controller) register(env Env, id int32, incarnation int, previousEpoch int64) {
	b := &c.brokers[id-1]
	if b.registered && !b.fenced && !c.cfg.ZooKeeperEra {
		c.fence(env, []int32{id}, "re-registration")
	}
	if c.cfg.EligibleLeaderReplicas && b.registered && b.incarnation != incarnation {
		// (A broker's first registration finds it in no ISR in Kafka; here a
		// partition created before any broker registered names its first
		// replica, which keeps its place.)
		c.registeredAfterShutdown(env, id, previousEpoch == b.epoch)
	}
	c.nextBrokerEpoch++
	b.registered, b.incarnation, b.epoch, b.lastHeartbeat = true, incarnation, c.nextBrokerEpoch, env.Now()
	c.markAllChanged()
	env.Record(event.Controller, id, nil, "broker %d registered with broker epoch %d", id, b.epoch)
	if b.fenced {
		c.unfence(env, id, "registration")
	}
	for _, k := range c.order {
		if p := c.parts[k]; slices.Contains(p.replicas, id) {
			c.sendPartitionState(env, id, k, p.leaderAndISR())
		}
	}
}

// resendStale sends a broker the partition states its replicas have not
// seen (messages lost to a network partition).
//
// It passes over a heartbeat that says what the last one the controller
// found nothing stale in said (the same netsim.Known, which is never
// changed), while no partition's epochs changed since: so a heartbeat of
// a broker whose replicas are up to date costs nothing per partition.
func (c *Controller) resendStale(env Env, id int32, known *netsim.Known) {
	b := &c.brokers[id-1]
	if known != nil && b.upToDate == (upToDate{known, c.epochs}) {
		return
	}
	b.upToDate = upToDate{known, c.epochs}
	for _, k := range c.order {
		p := c.parts[k]
		if seen, ok := known.Epochs(k); ok && seen != [2]int32{p.leaderEpoch, p.partitionEpoch} {
			c.sendPartitionState(env, id, k, p.leaderAndISR())
			b.upToDate = upToDate{}
		}
	}
}

// upToDate is a heartbeat's Known in which the controller found nothing
// stale, and the controller's epochs version then.
type upToDate struct {
	known  *netsim.Known
	epochs uint64
}

// epochsChanged notes that a partition's epochs changed, or a partition
// came or went: the next heartbeat of every broker is looked at whole.
func (c *Controller) epochsChanged() { c.epochs++ }

// nextEpochs returns partition k's record p to change in place (own), its
// partition epoch one up, and its leader epoch too if newLeaderEpoch.
// Every change of a partition's record goes through it, so that none
// escapes what follows one: every broker's next heartbeat looked at whole
// (epochsChanged), the partition checked after this step (markChanged).
func (c *Controller) nextEpochs(k tp, p *partition, newLeaderEpoch bool) *partition {
	p = c.own(k, p)
	if newLeaderEpoch {
		p.leaderEpoch++
	}
	p.partitionEpoch++
	c.epochsChanged()
	c.markChanged(k)
	return p
}

// unfence makes a broker eligible again and elects it where a partition
// has no leader.
func (c *Controller) unfence(env Env, id int32, why string) {
	c.brokers[id-1].fenced = false
	c.markAllChanged()
	env.Record(event.Controller, id, nil, "unfenced broker %d (%s)", id, why)
	if c.cfg.EligibleLeaderReplicas {
		c.electLeaderlessELR(env)
		return
	}
	c.electLeaderless(env)
}

// electLeaderless elects a leader for every partition without one: the
// first ISR member in assignment order that is unfenced, else (unclean
// election enabled) the first unfenced replica.
func (c *Controller) electLeaderless(env Env) {
	for _, k := range c.order {
		p := c.parts[k]
		if p.leader != replica.NoLeader {
			continue
		}
		var live []int32
		for _, id := range p.isr {
			if c.Unfenced(id) {
				live = append(live, id)
			}
		}
		if leader := firstIn(p.replicas, live); leader != replica.NoLeader {
			c.change(env, k, p, leader, live, "elected from the ISR")
			continue
		}
		if !c.Settings(k.Topic).UncleanLeaderElectionEnable {
			continue
		}
		for _, id := range p.replicas {
			if c.Unfenced(id) {
				c.change(env, k, p, id, []int32{id}, "unclean election")
				break
			}
		}
	}
}

// expireSessions fences brokers whose session expired, all at once.
func (c *Controller) expireSessions(env Env) {
	var expired []int32
	for i, b := range c.brokers {
		if b.registered && !b.fenced && env.Now()-b.lastHeartbeat > c.cfg.BrokerSessionTimeoutMs {
			expired = append(expired, int32(i+1))
		}
	}
	if len(expired) > 0 {
		c.fence(env, expired, "session expired")
	}
}

// fence fences brokers: they leave every ISR, except that an ISR never
// empties; partitions they led elect a new leader or go offline. Under
// [Config.EligibleLeaderReplicas] the ISR may empty (fenceELR).
func (c *Controller) fence(env Env, ids []int32, why string) {
	if c.cfg.EligibleLeaderReplicas {
		c.fenceELR(env, ids, why)
		return
	}
	for _, id := range ids {
		c.brokers[id-1].fenced = true
		c.markAllChanged()
		env.Record(event.Controller, id, nil, "fenced broker %d (%s)", id, why)
	}
	for _, k := range c.order {
		p := c.parts[k]
		isr := slices.DeleteFunc(slices.Clone(p.isr), func(id int32) bool { return slices.Contains(ids, id) })
		if len(isr) == 0 {
			isr = p.isr // the last ISR members stay: an ISR never empties
		}
		if p.leader != replica.NoLeader && !slices.Contains(ids, p.leader) {
			c.change(env, k, p, p.leader, isr, "fenced replicas removed from the ISR")
			continue
		}
		var live []int32
		for _, id := range isr {
			if c.Unfenced(id) {
				live = append(live, id)
			}
		}
		if leader := firstIn(p.replicas, live); leader != replica.NoLeader {
			c.change(env, k, p, leader, isr, "leader fenced, elected from the ISR")
		} else {
			c.change(env, k, p, replica.NoLeader, isr, "offline, last replica standing")
		}
	}
	c.electLeaderless(env)
}

// alterPartition handles a leader's ISR proposal (AlterPartition).
func (c *Controller) alterPartition(env Env, from int32, k tp, a replica.AlterPartition) {
	p := c.parts[k]
	resp := replica.Message{Type: replica.MsgAlterPartitionResponse, To: from, CorrelationID: a.CorrelationID}
	switch {
	case p == nil:
		return
	case p.leader != from || a.LeaderEpoch != p.leaderEpoch:
		resp.Error = replica.FencedLeaderEpoch
	case a.PartitionEpoch != p.partitionEpoch:
		resp.Error = replica.InvalidUpdateVersion
	case !c.allEligible(p, a.ISR):
		resp.Error = ineligibleReplica
	}
	resp.LeaderEpoch = a.LeaderEpoch
	if resp.Error == replica.None && c.cfg.EligibleLeaderReplicas {
		c.alterPartitionELR(env, from, k, p, a, resp)
		return
	}
	if resp.Error == replica.None {
		p = c.nextEpochs(k, p, false)
		p.isr = sortedIDs(a.ISR)
		env.Record(event.Controller, from, &k, "AlterPartition accepted: isr %s, partition epoch %d", replica.FormatIDs(p.isr), p.partitionEpoch)
		resp.ISR, resp.PartitionEpoch = slices.Clone(p.isr), p.partitionEpoch
		for _, id := range p.replicas {
			if id != from {
				c.sendPartitionState(env, id, k, p.leaderAndISR())
			}
		}
	} else {
		env.Record(event.Controller, from, &k, "AlterPartition %s refused: %s", replica.FormatIDs(a.ISR), resp.Error)
	}
	env.Send(netsim.Envelope{From: netsim.Controller, To: from, Kind: netsim.KindReplica, TP: k, Msg: resp})
}

// allEligible reports whether every proposed member may be in the ISR: an
// assigned replica, and under KRaft an unfenced broker.
func (c *Controller) allEligible(p *partition, isr []int32) bool {
	for _, id := range isr {
		if !slices.Contains(p.replicas, id) || !c.cfg.ZooKeeperEra && !c.Unfenced(id) {
			return false
		}
	}
	return len(isr) > 0
}

// Tick notices a lost active controller and elects the next one (combined
// mode), then, while a controller is up, fences the brokers whose session
// expired.
func (c *Controller) Tick(env Env) {
	c.tickQuorum(env)
	if c.Up(env) {
		c.expireSessions(env)
	}
}

func (p *partition) String() string {
	return fmt.Sprintf("leader=%d e=%d isr=%s", p.leader, p.leaderEpoch, replica.FormatIDs(p.isr))
}

// View is a partition's state as the controller keeps it, for reading:
// its slices are the controller's own and must not be modified.
type View struct {
	Replicas, ISR []int32
	// ELR and LastKnownELR are the eligible leader replicas and the last
	// known leader ([Config.EligibleLeaderReplicas]; nil otherwise).
	ELR, LastKnownELR           []int32
	Leader                      int32
	LeaderEpoch, PartitionEpoch int32
}

// View returns a partition's state without copying it; false when unknown.
func (c *Controller) View(k tp) (View, bool) {
	p := c.parts[k]
	if p == nil {
		return View{}, false
	}
	return View{Replicas: p.replicas, ISR: p.isr, ELR: p.elr, LastKnownELR: p.lastELR, Leader: p.leader, LeaderEpoch: p.leaderEpoch, PartitionEpoch: p.partitionEpoch}, true
}

// Replicas returns a partition's replicas in assignment order (nil when
// unknown); the slice is the controller's own and must not be modified.
func (c *Controller) Replicas(k tp) []int32 {
	if p := c.parts[k]; p != nil {
		return p.replicas
	}
	return nil
}
