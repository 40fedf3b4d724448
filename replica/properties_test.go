package replica_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// opKind is one kind of event in a random schedule.
type opKind int

const (
	opProduce opKind = iota
	opDeliver
	opDrop
	opTick
	opCrash
	opRestart
	opFence
	opRetry
)

// op is one event of a schedule, as plain numbers so that a schedule is data
// rapid can shrink and a test can replay. A and B pick among what exists at
// that moment (modulo its size).
type op struct {
	Kind opKind
	A, B int
}

func (o op) String() string { return fmt.Sprintf("%d/%d/%d", o.Kind, o.A, o.B) }

func drawSchedule(t *rapid.T) []op {
	gen := rapid.Custom(func(t *rapid.T) op {
		// Deliveries dominate so that fetch rounds make progress.
		kind := rapid.SampledFrom([]opKind{opProduce, opProduce, opDeliver, opDeliver, opDeliver, opDeliver,
			opDeliver, opDeliver, opDrop, opTick, opTick, opCrash, opRestart, opFence, opRetry}).Draw(t, "kind")
		return op{Kind: kind, A: rapid.IntRange(0, 99).Draw(t, "pick"), B: rapid.IntRange(0, 99).Draw(t, "pick2")}
	})
	schedule := make([]op, rapid.IntRange(1, 150).Draw(t, "events"))
	for i := range schedule {
		schedule[i] = gen.Draw(t, "event")
	}
	return schedule
}

// apply runs one event. Crashes are process crashes (the log survives); the
// controller fences only brokers that are down, and elections are clean.
func apply(env *replicatest.InteractionEnv, o op) string {
	live, down := brokers(env)
	switch o.Kind {
	case opProduce:
		to := env.Controller.Leader
		if to == replica.NoLeader || o.B%4 == 0 {
			to = env.Peers[o.B%len(env.Peers)].ID
		}
		acks := []int16{0, 1, replica.AcksAll}[o.A%3]
		return env.Produce(to, acks, 0, []string{fmt.Sprintf("v%d", o.A)}, o.B%2 == 0)
	case opRetry:
		if len(env.Results) > 0 && env.Controller.Leader != replica.NoLeader {
			return env.Retry(int64(o.A%len(env.Results))+1, env.Controller.Leader, 0)
		}
	case opDeliver, opDrop:
		if len(env.Queue) == 0 {
			return ""
		}
		from, to := env.Queue[o.A%len(env.Queue)].Ends()
		f := replicatest.Filter{From: from, To: to, N: 1}
		if o.Kind == opDrop {
			return env.Drop(f)
		}
		return env.Deliver(f)
	case opTick:
		return env.Tick([]int64{1, 100, 500, 5000, 15000}[o.A%5])
	case opCrash:
		if len(live) > 0 {
			return env.Crash(live[o.A%len(live)], false, nil, nil)
		}
	case opRestart:
		if len(down) > 0 {
			return env.Restart(down[o.A%len(down)])
		}
	case opFence:
		if len(down) > 0 {
			return env.Fence(down[o.A%len(down)])
		}
	}
	return ""
}

// noDuplicateSequences: the leader's log never holds one idempotent
// producer sequence twice, however the producer retries.
func noDuplicateSequences(env *replicatest.InteractionEnv) error {
	leader, err := env.Peer(env.Controller.Leader)
	if err != nil || leader.Node == nil {
		return nil
	}
	seen := map[int32]int64{}
	for _, e := range leader.Log.Entries() {
		if e.Producer == nil {
			continue
		}
		if at, ok := seen[e.Producer.Sequence]; ok {
			return fmt.Errorf("leader %d holds producer sequence %d twice, at offsets %d and %d", leader.ID, e.Producer.Sequence, at, e.Offset)
		}
		seen[e.Producer.Sequence] = e.Offset
	}
	return nil
}

func brokers(env *replicatest.InteractionEnv) (live, down []int32) {
	for _, p := range env.Peers {
		if p.Node != nil {
			live = append(live, p.ID)
		} else {
			down = append(down, p.ID)
		}
	}
	return live, down
}

// run plays a schedule on a fresh three-broker cluster, checking the
// invariants after every event, and returns the trace.
func run(t *rapid.T, rules replica.RuleSet, minISR int, schedule []op) string {
	trace, err := play(rules, minISR, schedule)
	if err != nil {
		t.Fatalf("%v\ntrace:\n%s", err, trace)
	}
	return trace
}

// play is run without rapid: it stops at the first broken invariant.
func play(rules replica.RuleSet, minISR int, schedule []op) (string, error) {
	env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: rules, MinInsyncReplicas: minISR})
	if err != nil {
		return "", err
	}
	checker := &replicatest.Checker{ISRAgreement: rules >= replica.V3_7}
	var trace strings.Builder
	trace.WriteString(env.Elect(1, nil))
	for i, o := range schedule {
		fmt.Fprintf(&trace, "\n> %s\n%s", o, apply(env, o))
		err := checker.Check(env)
		if err == nil && rules >= replica.V3_7 {
			err = errors.Join(noDuplicateSequences(env), noAckedWriteLost(env))
		}
		if err != nil {
			return trace.String(), fmt.Errorf("under %s rules, after event %d (%v) of schedule %v: %w", rules, i, o, schedule[:i+1], err)
		}
	}
	return trace.String(), nil
}

// noAckedWriteLost: every record acknowledged with acks=all and NONE is at
// its offset in the current leader's log. Crashes in these schedules are
// process crashes and elections are clean, so the modern rules must keep
// this; 0.10's truncation to the HW does not (KIP-101).
func noAckedWriteLost(env *replicatest.InteractionEnv) error {
	leader, err := env.Peer(env.Controller.Leader)
	if err != nil || leader.Node == nil {
		return nil
	}
	entries := leader.Log.Entries()
	for _, r := range env.Results {
		if r.Acks != replica.AcksAll || r.Response == nil || r.Response.Error != replica.None {
			continue
		}
		for i, v := range r.Values {
			off := r.Response.BaseOffset + int64(i)
			if off >= int64(len(entries)) || string(entries[off].Value) != v {
				return fmt.Errorf("send #%d: %s was acknowledged at offset %d with acks=all, leader %d's log is %s",
					r.CorrelationID, v, off, leader.ID, replicatest.DescribeEntries(entries, -1, leader.Node.Status().Rules))
			}
		}
	}
	return nil
}

// TestInvariantsOverRandomSchedules: on every replica HW ≤ LEO; a leader's
// HW never moves back within its epoch; and under the modern rules every
// member of the leader's ISR holds the leader's records below its HW, the
// leader's log never holds an idempotent producer's sequence twice, and no
// record acknowledged with acks=all is missing from the leader's log. Rule
// sets without epochs or fencing are held only to the first two.
func TestInvariantsOverRandomSchedules(t *testing.T) {
	for _, rules := range []replica.RuleSet{replica.V0_10, replica.V0_11, replica.V2_0, replica.V2_1, replica.V3_7, replica.V4} {
		t.Run(rules.String(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				minISR := rapid.IntRange(1, 3).Draw(t, "min.insync.replicas")
				run(t, rules, minISR, drawSchedule(t))
			})
		})
	}
}

// TestSameScheduleSameTrace: the replica core has no hidden state, clock or
// randomness, so a schedule replayed gives the same trace byte for byte.
func TestSameScheduleSameTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V0_10, replica.V0_11, replica.V2_0, replica.V2_1, replica.V3_7, replica.V4}).Draw(t, "rules")
		schedule := drawSchedule(t)
		first, second := run(t, rules, 2, schedule), run(t, rules, 2, slices.Clone(schedule))
		if first != second {
			t.Fatalf("the same schedule under %s rules gave two different traces:\n%s\n----\n%s", rules, first, second)
		}
	})
}
