package replicatest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/replica"
)

// ControllerID is the id the environment's controller uses in messages.
const ControllerID int32 = 0

// ProducerID is the id of the environment's one producer.
const ProducerID int32 = 100

// ProducerIdempotentID is the producer id its idempotent sends carry.
const ProducerIdempotentID int64 = 1

// Peer is one broker's replica: its log survives crashes, its Node does not.
type Peer struct {
	ID   int32
	Log  *replica.MemLog
	Node *replica.Node // nil while the broker is down
	// Checkpoint is the HW in replication-offset-checkpoint, read on restart.
	Checkpoint int64
}

// Controller is the environment's stand-in for the controller: the
// partition's leader, epochs and committed ISR.
type Controller struct {
	Leader         int32
	LeaderEpoch    int32
	PartitionEpoch int32
	ISR            []int32
	Replicas       []int32
}

// Envelope is one in-flight message: to or from a replica, or an ISR
// proposal on its way to the controller.
type Envelope struct {
	Msg   *replica.Message
	Alter *replica.AlterPartition
}

// ProduceResult is what the producer was told.
type ProduceResult struct {
	CorrelationID int64
	Values        []string
	Acks          int16
	Response      *replica.ProduceResponse // nil while pending
	// Records are the records sent, kept for retries.
	Records []replica.Record
	// RetryOf is the correlation id of the send this one retries, or 0.
	RetryOf int64
}

// InteractionEnv is a partition with several replicas and everything around
// them. Its methods return what happened as text.
type InteractionEnv struct {
	Config     replica.Config
	NowMs      int64
	Peers      []*Peer
	Controller Controller
	Queue      []Envelope
	Results    []*ProduceResult
	// Checker, if set, runs after every collection of Ready output.
	Checker *Checker
	// nextSequence is the idempotent producer's next sequence number.
	nextSequence int32
	out          strings.Builder
}

// NewInteractionEnv returns n brokers with ids 1..n and empty logs, none
// started as leader or follower yet. base supplies the rule set and the
// settings; its ID is ignored.
func NewInteractionEnv(n int, base replica.Config) (*InteractionEnv, error) {
	env := &InteractionEnv{Config: base, Controller: Controller{Leader: replica.NoLeader, LeaderEpoch: replica.NoEpoch, PartitionEpoch: -1}}
	for id := int32(1); id <= int32(n); id++ {
		p := &Peer{ID: id, Log: &replica.MemLog{OnlyNewerEpochs: !base.Rules.EpochCacheTruncatesOnAppend()}}
		env.Peers = append(env.Peers, p)
		env.Controller.Replicas = append(env.Controller.Replicas, id)
		if err := env.start(p); err != nil {
			return nil, err
		}
	}
	return env, nil
}

// Peer returns broker id, or an error if there is none.
func (env *InteractionEnv) Peer(id int32) (*Peer, error) {
	for _, p := range env.Peers {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no broker %d", id)
}

func (env *InteractionEnv) start(p *Peer) error {
	cfg := env.Config
	cfg.ID, cfg.InitialHighWatermark, cfg.NowMs = p.ID, p.Checkpoint, env.NowMs
	node, err := replica.NewNode(cfg, p.Log)
	if err != nil {
		return err
	}
	p.Node = node
	return nil
}

// partition is the controller's state as a LeaderAndIsr.
func (env *InteractionEnv) partition() replica.LeaderAndISR {
	c := env.Controller
	return replica.LeaderAndISR{Leader: c.Leader, LeaderEpoch: c.LeaderEpoch, PartitionEpoch: c.PartitionEpoch,
		ISR: slices.Clone(c.ISR), Replicas: slices.Clone(c.Replicas)}
}

// announce sends the controller's state to broker p (LeaderAndIsr).
func (env *InteractionEnv) announce(p *Peer) {
	if p.Node == nil || env.Controller.LeaderEpoch < 0 {
		return
	}
	var err error
	if env.Controller.Leader == p.ID {
		err = p.Node.BecomeLeader(env.partition())
	} else {
		err = p.Node.BecomeFollower(env.partition())
	}
	if err != nil {
		fmt.Fprintf(&env.out, "%d: error: %v\n", p.ID, err)
	}
}

// collect takes every live node's Ready, queues its messages, records its
// produce answers, prints its events and answers (and the messages it sent
// if showSent), and advances it.
func (env *InteractionEnv) collect(showSent bool) {
	type zkWrite struct {
		p *Peer
		a replica.AlterPartition
	}
	var zkWrites []zkWrite
	for _, p := range env.Peers {
		if p.Node == nil || !p.Node.HasReady() {
			continue
		}
		rd := p.Node.Ready()
		for _, e := range rd.Events {
			fmt.Fprintf(&env.out, "%d: %s\n", p.ID, e)
		}
		var gone []int32 // down before the fetches held for them: no session time
		for i := range rd.Messages {
			m := rd.Messages[i]
			env.queue(Envelope{Msg: &m}, showSent)
			if q, err := env.Peer(m.To); m.Type == replica.MsgFetchHeld && err == nil && q.Node == nil {
				gone = append(gone, m.To)
			}
		}
		for i := range rd.AlterPartitions {
			a := rd.AlterPartitions[i]
			if !env.Config.Rules.SynchronousISRWrite() {
				env.queue(Envelope{Alter: &a}, showSent)
				continue
			}
			zkWrites = append(zkWrites, zkWrite{p, a})
		}
		for _, r := range rd.ProduceResponses {
			env.recordResult(r)
		}
		p.Node.Advance(rd)
		for _, id := range gone { // a session with a broker that is down ends with its connection
			p.Node.EndFetchSessions(id, -1)
		}
	}
	for _, w := range zkWrites {
		env.writeISRToZooKeeper(w.p, w.a)
	}
	if env.Checker != nil {
		err := env.Checker.Check(env)
		if err != nil && err.Error() != env.Checker.last {
			fmt.Fprintf(&env.out, "INVARIANT BROKEN: %v\n", err)
		}
		env.Checker.last = ""
		if err != nil {
			env.Checker.last = err.Error()
		}
	}
}

// writeISRToZooKeeper is the leader's synchronous ISR write before 2.7: the
// controller's state changes and the leader hears the outcome before
// anything else happens.
func (env *InteractionEnv) writeISRToZooKeeper(p *Peer, a replica.AlterPartition) {
	resp := env.handleAlter(a)
	fmt.Fprintf(&env.out, "%d: zk write isr=%s %s\n", p.ID, replica.FormatIDs(a.ISR), resp.Error)
	if p.Node == nil {
		return
	}
	if err := p.Node.Step(resp); err != nil {
		fmt.Fprintf(&env.out, "%d: error: %v\n", p.ID, err)
	}
	env.collect(true)
}

func (env *InteractionEnv) queue(e Envelope, show bool) {
	env.Queue = append(env.Queue, e)
	if show {
		fmt.Fprintf(&env.out, "sent %s\n", DescribeEnvelope(e, env.Config.Rules))
	}
}

func (env *InteractionEnv) recordResult(r replica.ProduceResponse) {
	for _, res := range env.Results {
		if res.CorrelationID == r.CorrelationID && res.Response == nil {
			res.Response = &r
			fmt.Fprintf(&env.out, "p: %s\n", DescribeResult(res))
			return
		}
	}
	fmt.Fprintf(&env.out, "p: unexpected answer %+v\n", r)
}

// flush returns and resets the text written since the last flush.
func (env *InteractionEnv) flush() string {
	s := env.out.String()
	env.out.Reset()
	if s == "" {
		return "ok"
	}
	return strings.TrimSuffix(s, "\n")
}
