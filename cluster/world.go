package cluster

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/controller"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// World is a deterministic simulated Kafka cluster: brokers with their own
// in-memory file systems and partition logs, a controller, a network of
// message queues, producers, consumers and a virtual clock in milliseconds.
// Everything that happens is an [Event]; every action from outside is an
// [Action], so the world can be replayed, shown at an earlier moment
// ([World.At]) and forked. A World starts no goroutines, reads no clock and
// draws randomness only from its own generator seeded by [Config.Seed]. It
// is not safe for concurrent use.
type World struct {
	cfg Config
	// pcg is the state of rnd, the world's one random generator.
	pcg *rand.PCG
	rnd *rand.Rand
	// now is the world's time, from 0 when it starts: the timeline's, the
	// events' and the network's. clock is Kafka's, what the machines read
	// (record timestamps, retention, deadlines): [Config.ClockStartMs] +
	// now.
	now   int64
	clock int64

	brokers   []*broker.Broker // brokers[i] has id i+1
	ctl       *controller.Controller
	net       netsim.Network
	producers []*Producer
	consumers []*Consumer

	events []Event
	// built counts the events at the front of events whose text is
	// built; notes are the texts of the others, to build when they are
	// read (record, buildEvents).
	built   int
	notes   []note
	actions []Action
	// peeks are the logs opened on stopped brokers' files for the state
	// (peekCache.log).
	peeks peekCache
	// eventBase and actionBase count the events and actions that fell
	// off the front of a bounded timeline; snaps are its snapshots,
	// oldest first (see timeline.go).
	eventBase, actionBase int
	// actionBytes counts the bytes of the actions recorded, those that
	// fell off included (actionSize).
	actionBytes int64
	snaps       []snapshot
	check       checker
	// progress is, per group and partition, the offset after the furthest
	// record any member processed (to count duplicates).
	progress client.Progress
	// err is the first internal error, internal the first ones in detail,
	// internalCount all of them (internalerror.go); the world goes on.
	err           error
	internal      []InternalError
	internalCount int
	// reqs are the requests of Kafka clients outside the world, as the
	// brokers serve them (external.go).
	reqs *broker.Requests
	// delivering holds the envelope being delivered at each depth of
	// delivery (a handler's action may deliver in turn), reused from one
	// message to the next: a popped envelope whose address the handlers
	// take would otherwise be moved to the heap for every message.
	delivering []*netsim.Envelope
	depth      int
}

// ErrNotQuiet means the network did not become quiet within the bound of
// deliveries: a message loop, a bug. It is recorded as an internal error;
// the messages in flight are dropped and the world goes on.
var ErrNotQuiet = errors.New("cluster: network not quiet")

// New returns a world with brokers 1..cfg.Brokers running and registered
// with the controller, at time 0, with no topics.
func New(cfg Config) (*World, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, pcg: rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15), reqs: &broker.Requests{}}
	w.rnd = rand.New(w.pcg)
	w.clock = cfg.ClockStartMs
	w.ctl = controller.New(controller.Config{Brokers: cfg.Brokers, StartMs: cfg.ClockStartMs, ZooKeeperEra: cfg.zkEra(), BrokerSessionTimeoutMs: cfg.BrokerSessionTimeoutMs,
		Combined: cfg.CombinedControllers, FailoverMs: cfg.ControllerFailoverMs, BrokerSettings: w.cfg.topicDefaults(),
		ClientTopicSegmentBytes: cfg.ClientTopicSegmentBytes, EligibleLeaderReplicas: cfg.Rules.EligibleLeaderReplicas()})
	for id := int32(1); id <= int32(cfg.Brokers); id++ {
		w.brokers = append(w.brokers, broker.New(cfg.brokerConfig(id)))
	}
	w.actions = append(w.actions, Action{Kind: ActNew})
	w.record(EventAction, 0, nil, "new world: %d brokers, rules %s, min.insync.replicas %d, unclean %v", cfg.Brokers, cfg.Rules, cfg.MinInsyncReplicas, cfg.UncleanLeaderElectionEnable)
	for _, b := range w.brokers {
		if err := b.Start(w.env()); err != nil {
			return nil, err
		}
	}
	w.quiet()
	if w.err != nil {
		return nil, w.err
	}
	w.snapshot()
	return w, nil
}

// Config returns the world's configuration, with defaults filled in.
func (w *World) Config() Config { return w.cfg }

// NowMs returns the virtual time in milliseconds since the world started.
func (w *World) NowMs() int64 { return w.now }

// ClockMs returns Kafka's clock, what the brokers and the clients read
// (milliseconds since the Unix epoch): [Config.ClockStartMs] + [World.NowMs].
func (w *World) ClockMs() int64 { return w.clock }

// Events returns the timeline so far (from [World.StartMs] when
// [TimelineConfig.KeepMs] bounds it, and the newest [MaxEvents] at most;
// [Event.Seq] still counts from the first). The caller must not modify it.
// An event's text is built when it is first read here, not when it
// happens: a world nobody reads pays for none.
func (w *World) Events() []Event {
	w.buildEvents()
	return w.events
}

// Actions returns the actions applied so far, starting with [ActNew] (or,
// on a bounded timeline, with the first action after its oldest
// snapshot; [Event.Step] counts from ActNew). The caller must not modify
// it.
func (w *World) Actions() []Action { return w.actions }

// Rand returns the world's random generator (for code that drives the
// world, like the explorer, so that one seed decides everything).
func (w *World) Rand() *rand.Rand { return w.rnd }

func (w *World) broker(id int32) (*broker.Broker, error) {
	if id < 1 || int(id) > len(w.brokers) {
		return nil, fmt.Errorf("%w: no broker %d", ErrInvalidConfig, id)
	}
	return w.brokers[id-1], nil
}

// tick moves the clock by ms and runs everything that is due, then delivers
// messages until the network is quiet, then runs the checker. A broker
// whose tick fails halts (an internal error); the others go on.
func (w *World) tick(ms int64) error {
	w.now += ms
	w.clock = w.cfg.ClockStartMs + w.now
	for _, b := range w.brokers {
		if err := b.Tick(w.env()); err != nil {
			w.internalError(b, err)
		}
	}
	w.ctl.Tick(w.env())
	for _, p := range w.producers {
		p.Tick(w.env())
	}
	for _, c := range w.consumers {
		c.Tick(w.env())
	}
	w.quiet()
	w.reqs.Tick(w.env(), w.brokers)
	w.flushCheckpoints()
	w.runChecker()
	return nil
}

// runFor ticks until ms have passed.
func (w *World) runFor(ms int64) error {
	for end := w.now + ms; w.now < end; {
		if err := w.tick(min(w.cfg.TickMs, end-w.now)); err != nil {
			return err
		}
	}
	return nil
}

// quiet delivers messages until none is in flight, or (with
// [Config.NetworkLatencyMs]) until the oldest has not arrived yet. A
// network that is not quiet after DefaultMaxDeliveriesPerQuiet deliveries is an internal error:
// what is in flight is dropped (requests are resent after their
// timeouts) and the world goes on.
func (w *World) quiet() {
	for i := 0; w.net.Due(w.now); i++ {
		if i >= DefaultMaxDeliveriesPerQuiet {
			storm := stormOf(w.net.InFlight())
			w.net.Drop(nil, nil)
			w.internalError(nil, fmt.Errorf("%w after %d deliveries (in flight: %s); dropped them", ErrNotQuiet, i, storm))
			return
		}
		w.deliverNext()
	}
}

// send queues a message and counts its bytes out of a broker.
func (w *World) send(e netsim.Envelope) {
	if e.From >= 1 && int(e.From) <= len(w.brokers) {
		w.brokers[e.From-1].CountOut(e.Size())
		e.FromIncarnation = w.brokers[e.From-1].Incarnation()
	}
	if e.ToIncarnation == 0 && e.To >= 1 && int(e.To) <= len(w.brokers) {
		e.ToIncarnation = w.brokers[e.To-1].Incarnation()
	}
	e.DueMs = w.now + w.cfg.NetworkLatencyMs
	w.net.Push(e)
}

// deliverNext delivers (or drops) the oldest message in flight. A broker
// that fails handling it halts (an internal error).
func (w *World) deliverNext() {
	if w.depth == len(w.delivering) {
		w.delivering = append(w.delivering, new(netsim.Envelope))
	}
	e := w.delivering[w.depth]
	var ok bool
	if *e, ok = w.net.Pop(); !ok {
		return
	}
	w.depth++
	defer func() { w.depth--; *e = netsim.Envelope{} }()
	if reason := w.dropReason(e); reason != "" {
		if w.cfg.TraceMessages {
			w.record(EventMessage, 0, nil, "dropped %s (%s)", e.String(), reason)
		}
		w.groupRequestDropped(e, reason)
		return
	}
	if w.cfg.TraceMessages {
		w.record(EventMessage, 0, nil, "delivered %s", e.String())
	}
	switch {
	case e.To == ControllerID:
		w.ctl.Step(w.env(), e)
		return
	case e.To >= ExternalNodeBase:
		w.reqs.StepAnswer(w.env(), w.brokers, e)
		return
	case e.To >= netsim.TxnMarkerBase:
		w.brokers[e.To-netsim.TxnMarkerBase-1].StepTxnMarkerAppend(w.env(), e)
		return
	case e.To >= netsim.TxnCoordinatorBase:
		w.brokers[e.To-netsim.TxnCoordinatorBase-1].StepTxnCoordinator(w.env(), e)
		return
	case e.To >= netsim.CoordinatorBase:
		w.brokers[e.To-netsim.CoordinatorBase-1].StepCoordinator(w.env(), e)
		return
	case e.To == netsim.ConsumerNode:
		w.deliverToConsumer(e)
		return
	case e.To == netsim.AdminNode:
		broker.AdminAnswered(w.env(), e)
		return
	case e.To >= netsim.ProducerBase:
		w.producers[e.To-netsim.ProducerBase].Step(w.env(), e)
		return
	}
	b := w.brokers[e.To-1]
	if err := b.Step(w.env(), e); err != nil {
		w.internalError(b, err)
	}
}

// dropReason says why e cannot be delivered, or "".
func (w *World) dropReason(e *netsim.Envelope) string {
	if w.net.Cut(e.From, e.To) {
		return "link cut"
	}
	if (e.To == ControllerID || e.From == ControllerID) && !w.ctl.Up(w.env()) {
		return "no active controller"
	}
	if e.To >= 1 && int(e.To) <= len(w.brokers) {
		b := w.brokers[e.To-1]
		if b.State() != BrokerRunning {
			return "broker " + b.State().String()
		}
		if b.Incarnation() != e.ToIncarnation {
			return "broker restarted"
		}
	}
	if e.To >= netsim.ProducerBase && e.To < netsim.CoordinatorBase && int(e.To-netsim.ProducerBase) >= len(w.producers) {
		return "no such producer"
	}
	return ""
}

// InFlight returns the messages in flight, oldest first, one line each.
func (w *World) InFlight() []string {
	out := make([]string, 0, w.net.Len())
	for _, e := range w.net.InFlight() {
		out = append(out, e.String())
	}
	return out
}

// sortedBrokerIDs returns the ids of brokers in set, sorted.
func sortedIDs(ids []int32) []int32 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
