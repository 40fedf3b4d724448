package explore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
)

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
	Violations []cluster.Violation
	// Skipped counts operations that were not applicable (starting a
	// running broker, a power cut outside the restricted fault model).
	Skipped int
	// Acked counts acknowledged records.
	Acked int
	// Internal lists the internal errors the world recorded and went on
	// from ([cluster.World.InternalErrors]).
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
// RunSchedule plays a schedule on a fresh world seeded with seed, then
// heals the network, starts every broker, runs 40 s so that everything
// catches up, and reports what was lost or diverged. The error is the
// first internal error the world went on from ([cluster.World.Err]), or
// an action the world refused, if any.
func RunSchedule(cfg ReplicationConfig, seed uint64, ops []Op) (Outcome, *cluster.World, error) {
	cfg = cfg.withDefaults()
	w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: cfg.Rules, MinInsyncReplicas: cfg.MinInsyncReplicas,
		UncleanLeaderElectionEnable: cfg.UncleanLeaderElectionEnable, TickMs: cfg.TickMs})
	if err != nil {
		return Outcome{}, nil, err
	}
	var out Outcome
	setup := []cluster.Action{
		{Kind: cluster.ActCreateTopic, Topic: cluster.TopicSpec{Name: exploreTopic, Assignment: [][]int32{{1, 2, 3}}}},
		{Kind: cluster.ActAddProducer, Producer: cluster.ProducerConfig{Name: "p", Topic: exploreTopic, Acks: "all"}},
		{Kind: cluster.ActRun, Ms: 100},
	}
	for _, a := range setup {
		if err := w.Do(a); err != nil {
			return out, w, err
		}
	}
	for _, a := range ops {
		ok, err := applyOp(w, cfg, a)
		if err != nil {
			return out, w, err
		}
		if !ok {
			out.Skipped++
		}
	}
	if err := settle(w); err != nil {
		return out, w, err
	}
	judge(w, &out)
	return out, w, w.Err()
}

// resolve turns a target into a broker id (0 if there is none now).
func resolve(w *cluster.World, target int32) int32 {
	if target > 0 {
		return target
	}
	p := w.TopicPartitions(exploreTopic)[0]
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

// applyOp applies one scheduled operation if it applies now.
func applyOp(w *cluster.World, cfg ReplicationConfig, o Op) (bool, error) {
	id := resolve(w, o.Target)
	var acts []cluster.Action
	switch o.Kind {
	case cluster.ActProduce:
		acts = []cluster.Action{{Kind: cluster.ActProduce, Name: "p", Value: o.Value, Partition: -1}}
	case cluster.ActRun:
		acts = []cluster.Action{{Kind: cluster.ActRun, Ms: o.Ms}}
	case cluster.ActHeal:
		acts = []cluster.Action{{Kind: cluster.ActHeal}}
	case OpIsolate:
		acts = []cluster.Action{{Kind: cluster.ActPartition, A: []int32{id}, B: everyoneBut(id, 1)}}
	case OpBounce:
		acts = []cluster.Action{{Kind: cluster.ActKill, Broker: id}, {Kind: cluster.ActStart, Broker: id}}
	default:
		acts = []cluster.Action{{Kind: o.Kind, Broker: id, Torn: o.Torn}}
	}
	if o.Target <= 0 && o.Kind != cluster.ActProduce && o.Kind != cluster.ActRun && o.Kind != cluster.ActHeal && id == 0 {
		return false, nil
	}
	if id != 0 {
		state, _ := w.BrokerState(id)
		running := state == cluster.BrokerRunning
		switch o.Kind {
		case cluster.ActStart:
			if running {
				return false, nil
			}
		case cluster.ActKill, cluster.ActStop, OpBounce:
			if !running {
				return false, nil
			}
		case cluster.ActPowerCut:
			if cfg.RestrictPowerCuts && !powerCutAllowed(w, id) {
				return false, nil
			}
		}
	}
	for _, a := range acts {
		if err := w.Do(a); err != nil {
			return false, err
		}
	}
	if o.Kind == cluster.ActPowerCut && cfg.RestrictPowerCuts {
		// Nothing else happens until the controller has fenced it.
		c := w.Config()
		if err := w.RunFor(c.BrokerSessionTimeoutMs + c.TickMs); err != nil {
			return true, err
		}
	}
	return true, nil
}

// settle heals the network, starts every broker and lets 40 s pass.
func settle(w *cluster.World) error {
	if err := w.Heal(); err != nil {
		return err
	}
	for _, id := range brokerIDs(w) {
		if state, _ := w.BrokerState(id); state != cluster.BrokerRunning {
			if err := w.Start(id); err != nil {
				return err
			}
		}
	}
	return w.RunFor(40000)
}

// judge fills in what was lost and what diverged: every record
// acknowledged is read at its offset on the leader (on any running
// replica while there is none), and every running follower's records are
// compared with the leader's below the smaller of the leader's high
// watermark and the follower's log end.
func judge(w *cluster.World, out *Outcome) {
	out.Violations = w.Violations()
	for _, ie := range w.InternalErrors() {
		out.Internal = append(out.Internal, ie.Error)
	}
	var p cluster.PartitionInfo
	for _, q := range w.State().Partitions {
		if q.Topic == exploreTopic {
			p = q
		}
	}
	running := func(id int32) *cluster.LogInfo { // id's replica log if it runs
		for i, l := range p.Logs {
			if l.Broker == id && l.Role != "down" {
				return &p.Logs[i]
			}
		}
		return nil
	}
	leader := running(p.Leader)
	out.Offline = leader == nil
	for _, r := range w.Producers()[0].Results() {
		if !r.Acked || r.Offset < 0 {
			continue
		}
		out.Acked++
		held := leader != nil && holds(leader, r.Offset, r.Value) ||
			leader == nil && slices.ContainsFunc(p.Logs, func(l cluster.LogInfo) bool { return l.Role != "down" && holds(&l, r.Offset, r.Value) })
		if !held {
			out.Lost = append(out.Lost, fmt.Sprintf("%s@%d", r.Value, r.Offset))
		}
	}
	if leader == nil {
		return
	}
	for _, id := range p.Replicas {
		f := running(id)
		if f == nil || id == p.Leader {
			continue
		}
		if off, ok := firstDifference(leader, f, p.LogStartOffset); ok {
			out.Diverged = append(out.Diverged, fmt.Sprintf("b%d differs from leader b%d at offset %d", id, p.Leader, off))
		}
	}
}

// holds reports whether the log has value at offset.
func holds(l *cluster.LogInfo, offset int64, value string) bool {
	i, ok := slices.BinarySearchFunc(l.Records, offset, func(r cluster.RecordInfo, o int64) int { return cmp.Compare(r.Offset, o) })
	return ok && l.Records[i].Value == value
}

// firstDifference returns the first offset, from `from` up to the
// leader's high watermark and the follower's log end, at which both logs
// hold a record and the records differ (leader epoch, key or value).
func firstDifference(leader, follower *cluster.LogInfo, from int64) (int64, bool) {
	limit := min(leader.HighWatermark, follower.LogEndOffset)
	at := map[int64]cluster.RecordInfo{}
	for _, r := range follower.Records {
		at[r.Offset] = r
	}
	for _, x := range leader.Records {
		if x.Offset < from {
			continue
		}
		if x.Offset >= limit {
			break
		}
		if y, ok := at[x.Offset]; ok && (x.LeaderEpoch != y.LeaderEpoch || x.Key != y.Key || x.Value != y.Value) {
			return x.Offset, true
		}
	}
	return 0, false
}
