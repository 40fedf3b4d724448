package replicatest

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/replica"
)

// Elect makes leader the partition's leader with the given ISR (the current
// one, or every replica the first time, when isr is nil): leader epoch + 1,
// partition epoch + 1, and a LeaderAndIsr to every live broker. Passing an
// ISR of the leader alone is an unclean election.
func (env *InteractionEnv) Elect(leader int32, isr []int32) string {
	c := &env.Controller
	if isr == nil {
		isr = c.ISR
		if len(isr) == 0 {
			isr = c.Replicas
		}
	}
	if !slices.Contains(isr, leader) {
		return fmt.Sprintf("error: leader %d not in isr %v", leader, isr)
	}
	c.Leader, c.ISR = leader, sorted(isr)
	c.LeaderEpoch++
	c.PartitionEpoch++
	return env.announceAll()
}

// Fence is the controller fencing broker id: it leaves the ISR; if it
// led, the first live ISR replica in assignment order leads instead, or
// nobody if none is left (the ISR then keeps it). Before KRaft 3.6 (rules
// older than Modern) removing a follower also bumps the leader epoch (ZooKeeper-era controller shrinks).
func (env *InteractionEnv) Fence(id int32) string {
	c := &env.Controller
	if !slices.Contains(c.ISR, id) {
		return fmt.Sprintf("ctl: %d is not in the isr %v", id, c.ISR)
	}
	rest := slices.DeleteFunc(slices.Clone(c.ISR), func(x int32) bool { return x == id })
	switch {
	case c.Leader == id:
		c.Leader = replica.NoLeader
		for _, r := range c.Replicas {
			if p, _ := env.Peer(r); slices.Contains(rest, r) && p != nil && p.Node != nil {
				c.Leader = r
				break
			}
		}
		if len(rest) > 0 {
			c.ISR = rest
		}
		c.LeaderEpoch++
	default:
		c.ISR = rest
		if env.Config.Rules < replica.V3_7 {
			c.LeaderEpoch++
		}
	}
	c.PartitionEpoch++
	return env.announceAll()
}

func (env *InteractionEnv) announceAll() string {
	env.publish()
	return env.flush()
}

// publish sends the controller's state to every live broker, as the KRaft
// metadata log does after every partition change, including an accepted
// AlterPartition: so a leader learns the committed ISR even if the answer
// to its proposal is lost.
func (env *InteractionEnv) publish() {
	fmt.Fprintf(&env.out, "%s\n", DescribeController(env.Controller))
	if p, err := env.Peer(env.Controller.Leader); err == nil {
		env.announce(p)
	}
	for _, p := range env.Peers {
		if p.ID != env.Controller.Leader {
			env.announce(p)
		}
	}
	env.collect(true)
}

// Crash stops broker id. A process crash keeps its log (the page cache
// survives); a power cut keeps only what was flushed; durable, if given, is
// the prefix that survives instead (a partial writeback). The HW checkpoint
// it restarts with is hw if given, else its HW at the crash. Messages in
// flight to or from it are lost.
func (env *InteractionEnv) Crash(id int32, powerCut bool, hw, durable *int64) string {
	p, err := env.Peer(id)
	if err != nil || p.Node == nil {
		return fmt.Sprintf("error: broker %d is not running", id)
	}
	p.Checkpoint = p.Node.Status().HighWatermark
	if hw != nil {
		p.Checkpoint = *hw
	}
	if powerCut {
		p.Log.PowerCut()
	}
	if durable != nil {
		if err := p.Log.TruncateTo(max(*durable, p.Log.LogStartOffset())); err != nil {
			return "error: " + err.Error()
		}
		p.Log.Flush() // what survived was on disk

	}
	p.Node = nil
	env.Queue = slices.DeleteFunc(env.Queue, func(e Envelope) bool {
		from, to := e.Ends()
		return from == id || to == id
	})
	fmt.Fprintf(&env.out, "%d: down log=%s hw-checkpoint=%d\n", id, DescribeLog(p.Log, env.Config.Rules), p.Checkpoint)
	for _, q := range env.Peers { // the connection is gone, and the fetch sessions over it
		if q.Node != nil {
			q.Node.EndFetchSessions(id, env.NowMs)
		}
	}
	return env.flush()
}

// Restart starts broker id again on what its log kept, with its HW
// checkpoint. If the controller still names it leader, or the partition has
// no leader and it is in the ISR, the controller elects it with a new
// leader epoch, as a re-registered broker gets.
func (env *InteractionEnv) Restart(id int32) string {
	p, err := env.Peer(id)
	if err != nil || p.Node != nil {
		return fmt.Sprintf("error: broker %d is not down", id)
	}
	if err := env.start(p); err != nil {
		return "error: " + err.Error()
	}
	fmt.Fprintf(&env.out, "%d: up leo=%d hw=%d\n", id, p.Log.LogEndOffset(), p.Node.Status().HighWatermark)
	c := &env.Controller
	if c.Leader == id || c.Leader == replica.NoLeader && slices.Contains(c.ISR, id) {
		// A leaderless partition elects a returning ISR member.
		c.Leader = id
		c.LeaderEpoch++
		c.PartitionEpoch++
		return env.announceAll()
	}
	env.announce(p)
	env.collect(true)
	return env.flush()
}

// Flush writes broker id's page cache to disk (OS writeback).
func (env *InteractionEnv) Flush(id int32) string {
	p, err := env.Peer(id)
	if err != nil {
		return "error: " + err.Error()
	}
	p.Log.Flush()
	return fmt.Sprintf("%d: flushed to %d", id, p.Log.RecoveryPoint())
}

// handleAlter is the controller's side of AlterPartition: it accepts
// a proposal from the current leader in the current leader and partition
// epochs, and returns its answer.
func (env *InteractionEnv) handleAlter(a replica.AlterPartition) replica.Message {
	c := &env.Controller
	resp := replica.Message{Type: replica.MsgAlterPartitionResponse, From: ControllerID, To: a.From,
		LeaderEpoch: a.LeaderEpoch, CorrelationID: a.CorrelationID}
	switch {
	case a.From != c.Leader || a.LeaderEpoch != c.LeaderEpoch:
		resp.Error = replica.FencedLeaderEpoch
	case a.PartitionEpoch != c.PartitionEpoch:
		resp.Error = replica.InvalidUpdateVersion
	default:
		c.ISR = sorted(a.ISR)
		c.PartitionEpoch++
		resp.ISR, resp.PartitionEpoch = slices.Clone(c.ISR), c.PartitionEpoch
	}
	return resp
}

func sorted(ids []int32) []int32 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
