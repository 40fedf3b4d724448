package explore

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// ReplicationConfig is one configuration the replication explorer runs
// random fault schedules against: three brokers, one partition with
// replicas [1,2,3], one producer with acks=all.
type ReplicationConfig struct {
	// Rules are the replication rules (the zero value is
	// [replica.V0_10]).
	Rules replica.RuleSet
	// MinInsyncReplicas is the brokers' min.insync.replicas (default 1;
	// kafkalive explore runs 2).
	MinInsyncReplicas int
	// UncleanLeaderElectionEnable is the brokers'
	// unclean.leader.election.enable.
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

func (c ReplicationConfig) withDefaults() ReplicationConfig {
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
	Kind cluster.ActionKind
	// Target is a broker id 1..3, or TargetLeader, TargetFollower1,
	// TargetFollower2 (the followers in assignment order).
	Target int32
	Torn   bool
	Ms     int64
	Value  string
}

// Explorer-only operations and targets.
const (
	OpBounce  cluster.ActionKind = "bounce"  // kill then start at once: a fast restart
	OpIsolate cluster.ActionKind = "isolate" // cut the target from every other node

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
	case cluster.ActProduce:
		return "produce " + o.Value
	case cluster.ActRun:
		return fmt.Sprintf("run %d ms", o.Ms)
	case cluster.ActHeal:
		return "heal"
	case cluster.ActPowerCut:
		if o.Torn {
			return "power-cut " + target + " torn"
		}
	}
	return string(o.Kind) + " " + target
}

// Schedule draws a random fault schedule from seed: produces, runs,
// crashes, fast restarts, power cuts (torn or not), clean stops, starts,
// OS writebacks, isolations and heals, aimed at the leader or a follower.
func Schedule(cfg ReplicationConfig, seed uint64) []Op {
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
			o = Op{Kind: cluster.ActProduce, Value: fmt.Sprintf("v%d", value)}
		case n < 40:
			ms := int64(r.IntN(5)+1) * 100
			if r.IntN(10) < 3 {
				ms = int64(r.IntN(20)+1) * 1000
			}
			o = Op{Kind: cluster.ActRun, Ms: ms}
		case n < 50:
			o = Op{Kind: cluster.ActKill, Target: target()}
		case n < 58:
			o = Op{Kind: cluster.ActStart, Target: int32(r.IntN(3) + 1)}
		case n < 70:
			o = Op{Kind: OpBounce, Target: target()}
		case n < 77:
			o = Op{Kind: cluster.ActPowerCut, Target: target(), Torn: r.IntN(2) == 0}
		case n < 80:
			o = Op{Kind: cluster.ActStop, Target: target()}
		case n < 85:
			o = Op{Kind: cluster.ActWriteback, Target: target()}
		case n < 93:
			o = Op{Kind: OpIsolate, Target: target()}
		default:
			o = Op{Kind: cluster.ActHeal}
		}
		ops = append(ops, o)
	}
	return ops
}

// FormatSchedule prints a schedule one operation per line.
func FormatSchedule(ops []Op) string {
	var b strings.Builder
	for i, a := range ops {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, a)
	}
	return b.String()
}
