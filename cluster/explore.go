package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// ExploreConfig is one configuration the explorer runs random fault
// schedules against: three brokers, one partition with replicas [1,2,3],
// one producer with acks=all.
type ExploreConfig struct {
	Rules                       replica.RuleSet
	MinInsyncReplicas           int
	UncleanLeaderElectionEnable bool
	// Ops is the number of operations per schedule (default 20).
	Ops int
	// RestrictPowerCuts applies the fault model under which acks=all with
	// min.insync.replicas=2 and clean elections promises no loss without
	// KIP-966's ELR: a power cut is made only when every partition of the
	// broker has at least min.insync.replicas running ISR members (it
	// included) that reach the controller, are registered in their current
	// incarnation and will heartbeat before their session expires, and
	// nothing else happens until the controller has fenced it. So at most one ISR
	// member at a time has lost its page cache, and it is out of the ISR
	// before any other replica can fail: no last replica standing can be
	// the one that lost data.
	RestrictPowerCuts bool
	// TickMs is the world's tick (default 100).
	TickMs int64
}

func (c ExploreConfig) withDefaults() ExploreConfig {
	if c.Ops == 0 {
		c.Ops = 20
	}
	if c.TickMs == 0 {
		c.TickMs = 100
	}
	if c.MinInsyncReplicas == 0 {
		c.MinInsyncReplicas = 1
	}
	return c
}

// exploreTopic is the explorer's topic.
const exploreTopic = "t"

// Op is one operation of a fault schedule. Its target is resolved when it
// is applied, so that a schedule can say "kill the leader".
type Op struct {
	// Kind is an action kind, or OpBounce (kill then start at once) or
	// OpIsolate (cut the target from every other node).
	Kind ActionKind
	// Target is a broker id 1..3, or TargetLeader, TargetFollower1,
	// TargetFollower2 (the followers in assignment order).
	Target int32
	Torn   bool
	Ms     int64
	Value  string
}

// Explorer-only operations and targets.
const (
	OpBounce  ActionKind = "bounce"  // kill then start at once: a fast restart
	OpIsolate ActionKind = "isolate" // cut the target from every other node

	TargetLeader    int32 = 0
	TargetFollower1 int32 = -1
	TargetFollower2 int32 = -2
)

// String prints the operation, e.g. "power-cut leader torn".
func (o Op) String() string {
	target := map[int32]string{TargetLeader: "leader", TargetFollower1: "follower1", TargetFollower2: "follower2"}[o.Target]
	if o.Target > 0 {
		target = fmt.Sprintf("b%d", o.Target)
	}
	switch o.Kind {
	case ActProduce:
		return "produce " + o.Value
	case ActRun:
		return fmt.Sprintf("run %d ms", o.Ms)
	case ActHeal:
		return "heal"
	case ActPowerCut:
		if o.Torn {
			return "power-cut " + target + " torn"
		}
	}
	return string(o.Kind) + " " + target
}

// Schedule draws a random fault schedule from seed: produces, runs,
// crashes, fast restarts, power cuts (torn or not), clean stops, starts,
// OS writebacks, isolations and heals, aimed at the leader or a follower.
func Schedule(cfg ExploreConfig, seed uint64) []Op {
	cfg = cfg.withDefaults()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	target := func() int32 { // the leader half the time, else a follower
		if r.IntN(2) == 0 {
			return TargetLeader
		}
		return int32(-r.IntN(2) - 1)
	}
	var ops []Op
	value := 0
	for len(ops) < cfg.Ops {
		var o Op
		switch n := r.IntN(100); {
		case n < 25:
			value++
			o = Op{Kind: ActProduce, Value: fmt.Sprintf("v%d", value)}
		case n < 40:
			ms := int64(r.IntN(5)+1) * 100
			if r.IntN(10) < 3 {
				ms = int64(r.IntN(20)+1) * 1000
			}
			o = Op{Kind: ActRun, Ms: ms}
		case n < 50:
			o = Op{Kind: ActKill, Target: target()}
		case n < 58:
			o = Op{Kind: ActStart, Target: int32(r.IntN(3) + 1)}
		case n < 70:
			o = Op{Kind: OpBounce, Target: target()}
		case n < 77:
			o = Op{Kind: ActPowerCut, Target: target(), Torn: r.IntN(2) == 0}
		case n < 80:
			o = Op{Kind: ActStop, Target: target()}
		case n < 85:
			o = Op{Kind: ActWriteback, Target: target()}
		case n < 93:
			o = Op{Kind: OpIsolate, Target: target()}
		default:
			o = Op{Kind: ActHeal}
		}
		ops = append(ops, o)
	}
	return ops
}

// resolve turns a target into a broker id (0 if there is none now).
func (w *World) resolve(target int32) int32 {
	if target > 0 {
		return target
	}
	p, _ := w.ctl.View(partitionKey{Topic: exploreTopic})
	if target == TargetLeader {
		return max(p.Leader, 0)
	}
	var followers []int32
	for _, id := range p.Replicas {
		if id != p.Leader {
			followers = append(followers, id)
		}
	}
	if i := int(-target) - 1; i < len(followers) {
		return followers[i]
	}
	return 0
}

// others is every node but id: the other brokers, the controller, the
// producer and the consumers.
func others(id int32) []int32 {
	out := []int32{ControllerID, netsim.ConsumerNode, netsim.ProducerBase}
	for b := int32(1); b <= 3; b++ {
		if b != id {
			out = append(out, b)
		}
	}
	return out
}

// Outcome is what one schedule did.
type Outcome struct {
	// Lost lists acknowledged acks=all records no longer at their offset
	// on the leader once every broker is back and caught up.
	Lost []string
	// Diverged lists replicas whose records differ from the leader's below
	// the HW at the end.
	Diverged []string
	// Offline is set if the partition has no leader at the end (nothing is
	// counted lost while some replica still holds it).
	Offline bool
	// Violations are the checker's findings during the run.
	Violations []Violation
	// Skipped counts operations that were not applicable (starting a
	// running broker, a power cut outside the restricted fault model).
	Skipped int
	// Acked counts acknowledged records.
	Acked int
	// Internal lists the internal errors the world recorded and went on
	// from ([World.InternalErrors]).
	Internal []string
}

// Failed reports whether a record was lost or the logs diverged.
func (o Outcome) Failed() bool { return len(o.Lost) > 0 || len(o.Diverged) > 0 }

// String summarises the outcome.
func (o Outcome) String() string {
	var parts []string
	if len(o.Lost) > 0 {
		parts = append(parts, "lost "+strings.Join(o.Lost, ", "))
	}
	if len(o.Diverged) > 0 {
		parts = append(parts, "diverged "+strings.Join(o.Diverged, "; "))
	}
	for _, v := range o.Violations {
		parts = append(parts, v.Invariant)
	}
	for _, e := range o.Internal {
		parts = append(parts, "internal error: "+e)
	}
	if o.Offline {
		parts = append(parts, "offline")
	}
	if len(parts) == 0 {
		return fmt.Sprintf("ok (%d acked)", o.Acked)
	}
	return strings.Join(parts, "; ")
}

// RunSchedule plays a schedule on a fresh world seeded with seed, then
// heals the network, starts every broker, runs 40 s so that everything
// catches up, and reports what was lost or diverged. The error is the
// first internal error the world went on from ([World.Err]), if any.
func RunSchedule(cfg ExploreConfig, seed uint64, ops []Op) (Outcome, *World, error) {
	cfg = cfg.withDefaults()
	w, err := New(Config{Seed: seed, Brokers: 3, Rules: cfg.Rules, MinInsyncReplicas: cfg.MinInsyncReplicas,
		UncleanLeaderElectionEnable: cfg.UncleanLeaderElectionEnable, TickMs: cfg.TickMs})
	if err != nil {
		return Outcome{}, nil, err
	}
	var out Outcome
	setup := []Action{
		{Kind: ActCreateTopic, Topic: TopicSpec{Name: exploreTopic, Assignment: [][]int32{{1, 2, 3}}}},
		{Kind: ActAddProducer, Producer: ProducerConfig{Name: "p", Topic: exploreTopic, Acks: "all"}},
		{Kind: ActRun, Ms: 100},
	}
	for _, a := range setup {
		if err := w.Do(a); err != nil {
			return out, w, err
		}
	}
	for _, a := range ops {
		ok, err := w.applyExplored(cfg, a)
		if err != nil {
			return out, w, err
		}
		if !ok {
			out.Skipped++
		}
	}
	if err := w.settle(); err != nil {
		return out, w, err
	}
	w.judge(&out)
	return out, w, w.Err()
}

// applyExplored applies one scheduled operation if it applies now.
func (w *World) applyExplored(cfg ExploreConfig, o Op) (bool, error) {
	id := w.resolve(o.Target)
	var acts []Action
	switch o.Kind {
	case ActProduce:
		acts = []Action{{Kind: ActProduce, Name: "p", Value: o.Value, Partition: -1}}
	case ActRun:
		acts = []Action{{Kind: ActRun, Ms: o.Ms}}
	case ActHeal:
		acts = []Action{{Kind: ActHeal}}
	case OpIsolate:
		acts = []Action{{Kind: ActPartition, A: []int32{id}, B: others(id)}}
	case OpBounce:
		acts = []Action{{Kind: ActKill, Broker: id}, {Kind: ActStart, Broker: id}}
	default:
		acts = []Action{{Kind: o.Kind, Broker: id, Torn: o.Torn}}
	}
	if o.Target <= 0 && o.Kind != ActProduce && o.Kind != ActRun && o.Kind != ActHeal && id == 0 {
		return false, nil
	}
	if id != 0 {
		running := w.brokers[id-1].State() == BrokerRunning
		switch o.Kind {
		case ActStart:
			if running {
				return false, nil
			}
		case ActKill, ActStop, OpBounce:
			if !running {
				return false, nil
			}
		case ActPowerCut:
			if cfg.RestrictPowerCuts && !w.powerCutAllowed(id) {
				return false, nil
			}
		}
	}
	for _, a := range acts {
		if err := w.Do(a); err != nil {
			return false, err
		}
	}
	if o.Kind == ActPowerCut && cfg.RestrictPowerCuts {
		// Nothing else happens until the controller has fenced it.
		if err := w.RunFor(w.cfg.BrokerSessionTimeoutMs + w.cfg.TickMs); err != nil {
			return true, err
		}
	}
	return true, nil
}

// powerCutAllowed is the restricted fault model's precondition: the broker
// runs, and every partition it hosts has at least min.insync.replicas ISR
// members that run, reach the controller and are registered with it in
// their current incarnation (no restart still on its way), it included,
// and whose session will not expire before their next heartbeat reaches
// the controller: a broker that just healed from an isolation longer than
// a heartbeat interval is unfenced still, but the controller fences it
// within the window (and shrinks the ISR to the broker that lost its page
// cache), so it does not count.
func (w *World) powerCutAllowed(id int32) bool {
	if w.brokers[id-1].State() != BrokerRunning {
		return false
	}
	for _, tp := range w.ctl.Partitions() {
		p, _ := w.ctl.View(tp)
		if !slices.Contains(p.Replicas, id) {
			continue
		}
		n := 0
		for _, m := range p.ISR {
			b, cb := w.brokers[m-1], w.ctl.Registration(m)
			if b.State() == BrokerRunning && w.ctl.Unfenced(m) && cb.Incarnation == b.Incarnation() && !w.net.Cut(m, ControllerID) &&
				b.NextHeartbeatMs()-cb.LastHeartbeatMs < w.cfg.BrokerSessionTimeoutMs {
				n++
			}
		}
		if !slices.Contains(p.ISR, id) || n < w.cfg.MinInsyncReplicas {
			return false
		}
	}
	return true
}

// settle heals the network, starts every broker and lets 40 s pass.
func (w *World) settle() error {
	if err := w.Heal(); err != nil {
		return err
	}
	for _, b := range w.brokers {
		if b.State() != BrokerRunning {
			if err := w.Start(b.ID()); err != nil {
				return err
			}
		}
	}
	return w.RunFor(40000)
}

// judge fills in what was lost and what diverged.
func (w *World) judge(out *Outcome) {
	out.Violations = w.Violations()
	for _, ie := range w.InternalErrors() {
		out.Internal = append(out.Internal, ie.Error)
	}
	tp := partitionKey{Topic: exploreTopic}
	p, _ := w.ctl.View(tp)
	var leader *broker.Partition
	if p.Leader != replica.NoLeader {
		leader = w.brokers[p.Leader-1].Partition(tp)
	}
	out.Offline = leader == nil
	for _, r := range w.producers[0].results {
		if !r.Acked || r.Offset < 0 {
			continue
		}
		out.Acked++
		if leader != nil && !holds(leader.Log, r.Offset, r.Value) || leader == nil && !w.anyHolds(tp, r.Offset, r.Value) {
			out.Lost = append(out.Lost, fmt.Sprintf("%s@%d", r.Value, r.Offset))
		}
	}
	if leader == nil {
		return
	}
	a := liveOf(w.brokers[p.Leader-1], leader)
	for _, id := range p.Replicas {
		s := w.brokers[id-1].Partition(tp)
		if s == nil || id == p.Leader {
			continue
		}
		b := liveOf(w.brokers[id-1], s)
		b.st.HighWatermark = min(b.st.LogEndOffset, a.st.HighWatermark) // compare the whole common prefix
		if off, ok := firstDifference(&a, &b, 0); ok {
			out.Diverged = append(out.Diverged, fmt.Sprintf("b%d differs from leader b%d at offset %d", id, p.Leader, off))
		}
	}
}

// anyHolds reports whether some running replica has value at offset.
func (w *World) anyHolds(tp partitionKey, offset int64, value string) bool {
	for _, b := range w.brokers {
		if s := b.Partition(tp); s != nil && holds(s.Log, offset, value) {
			return true
		}
	}
	return false
}

// holds reports whether the log has value at offset.
func holds(l *replicalog.Log, offset int64, value string) bool {
	if offset < l.LogStartOffset() || offset >= l.LogEndOffset() {
		return false
	}
	i := l.Index(offset)
	return i < l.Mirror().Len() && string(l.Mirror().At(i).Value) == value
}

// Shrink removes operations from a failing schedule, one at a time, while
// it still fails, and returns the shortest it found.
func Shrink(cfg ExploreConfig, seed uint64, ops []Op) []Op {
	return shrinkWhile(cfg, seed, ops, func(o Outcome, err error) bool { return err == nil && o.Failed() })
}

// shrinkWhile removes operations one at a time while fails holds for the
// shorter schedule's run.
func shrinkWhile(cfg ExploreConfig, seed uint64, ops []Op, fails func(Outcome, error) bool) []Op {
	best := slices.Clone(ops)
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(best); i++ {
			try := slices.Delete(slices.Clone(best), i, i+1)
			if o, _, err := RunSchedule(cfg, seed, try); fails(o, err) {
				best, changed = try, true
				i--
			}
		}
	}
	return best
}

// FormatSchedule prints a schedule one operation per line.
func FormatSchedule(ops []Op) string {
	var b strings.Builder
	for i, a := range ops {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, a)
	}
	return b.String()
}
