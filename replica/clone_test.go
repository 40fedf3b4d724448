package replica_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/clonetest"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// observeEnv is everything the environment shows: each broker's status and
// log, the output its node has not handed out yet, the controller, the
// messages in flight and what the producer was told.
func observeEnv(env *replicatest.InteractionEnv) string {
	var b strings.Builder
	b.WriteString(env.Status())
	for _, p := range env.Peers {
		if p.Node != nil {
			fmt.Fprintf(&b, "%d ready=%v %s\n", p.ID, p.Node.HasReady(), clonetest.Text(p.Node.Ready()))
		}
	}
	fmt.Fprintf(&b, "controller %s\nqueue %s\nresults %s\n", clonetest.Text(env.Controller), clonetest.Text(env.Queue), clonetest.Text(env.Results))
	return b.String()
}

// newEnv is a three-broker partition under rules, broker 1 elected.
func newEnv(t *rapid.T, rules replica.RuleSet, minISR int) *replicatest.InteractionEnv {
	env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: rules, MinInsyncReplicas: minISR})
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	env.Elect(1, nil)
	return env
}

// TestCloneEvolvesAsAReplay builds a partition of three replicas by a random
// schedule (produces, idempotent and retried, deliveries, drops, ticks,
// crashes, restarts, fencing), clones it (every node over its log's clone),
// then changes the original and the clone apart, in random turns, and checks
// after every event that each shows exactly what a fresh partition replaying
// its own history shows: the clone is not moved by what happens to the
// original, nor the original by the clone. Each node and its clone share
// nothing but what Node.Clone says (clonetest).
func TestCloneEvolvesAsAReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V0_10, replica.V0_11, replica.V2_0, replica.V2_1, replica.V3_7, replica.V4}).Draw(t, "rules")
		minISR := rapid.IntRange(1, 3).Draw(t, "min.insync.replicas")
		env := newEnv(t, rules, minISR)
		var before []op
		for range rapid.IntRange(0, 80).Draw(t, "events before the clone") {
			o := drawOp(t)
			apply(env, o)
			before = append(before, o)
		}
		clone := env.Clone()
		checkNodesShared(t, env, clone)
		sides := []*replicatest.InteractionEnv{env, clone}
		replays := [2]*replicatest.InteractionEnv{newEnv(t, rules, minISR), newEnv(t, rules, minISR)}
		for _, r := range replays {
			for _, o := range before {
				apply(r, o)
			}
		}
		for i := range rapid.IntRange(0, 60).Draw(t, "events after") {
			side := rapid.IntRange(0, 1).Draw(t, "side")
			if rapid.IntRange(0, 19).Draw(t, "clone again") == 0 {
				sides[side] = sides[side].Clone() // and forget the one cloned
			}
			o := drawOp(t)
			got, want := apply(sides[side], o), apply(replays[side], o)
			if got != want {
				t.Fatalf("event %d (%v) on side %d: answered\n%s\nwhere a replay answers\n%s", i, o, side, got, want)
			}
			for s := range sides {
				if got, want := observeEnv(sides[s]), observeEnv(replays[s]); got != want {
					t.Fatalf("after event %d (%v) on side %d, side %d differs from its replay (-replay +side):\n%s", i, o, side, s, cmp.Diff(want, got))
				}
			}
		}
	})
}

// drawOp draws one event of a schedule, as drawSchedule does.
func drawOp(t *rapid.T) op {
	kind := rapid.SampledFrom([]opKind{opProduce, opProduce, opDeliver, opDeliver, opDeliver, opDeliver,
		opDeliver, opDeliver, opDrop, opTick, opTick, opCrash, opRestart, opFence, opRetry}).Draw(t, "kind")
	return op{Kind: kind, A: rapid.IntRange(0, 99).Draw(t, "pick"), B: rapid.IntRange(0, 99).Draw(t, "pick2")}
}

// checkNodesShared fails if a node's clone reaches memory the node reaches,
// except what Node.Clone (and MemLog.Clone) share on purpose: the contents
// of emitted messages and events (records, ISRs, answers, batches) and the
// log's entries (written in place by neither below what they share).
func checkNodesShared(t *rapid.T, env, clone *replicatest.InteractionEnv) {
	allowed := []reflect.Type{
		reflect.TypeFor[[]replica.Entry](), reflect.TypeFor[[]replica.Record](), reflect.TypeFor[[]int32](),
		reflect.TypeFor[*replica.EpochEndOffset](), reflect.TypeFor[*replica.ProducerBatch](), reflect.TypeFor[*replica.ProducerSequence](),
		reflect.TypeFor[[]byte](),
	}
	for i, p := range env.Peers {
		if p.Node == nil {
			continue
		}
		for _, s := range clonetest.Shared(p.Node, clone.Peers[i].Node) {
			if !slices.Contains(allowed, s.Type()) {
				t.Fatalf("broker %d's clone shares %s with it", p.ID, s)
			}
		}
	}
}

// TestCloneKeepsProducerBatches: a leader that has seen many batches of two
// interleaved idempotent producers clones into one that knows the same last
// five batches of each, and both then take a retry of the oldest of them as
// a duplicate, refuse a retry of the one before it (no longer kept) and a
// gap, whoever sends first.
func TestCloneKeepsProducerBatches(t *testing.T) {
	leader, log := leaderWithLog(t, replica.Modern, nil, 0)
	produce := func(n *replica.Node, id int64, seq int32, corr int64) replica.ProduceResponse {
		t.Helper()
		must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: 1,
			Records: []replica.Record{{Value: []byte("v"), Producer: &replica.ProducerSequence{ID: id, Sequence: seq}}}}))
		rd := n.Ready()
		n.Advance(rd)
		if len(rd.ProduceResponses) != 1 {
			t.Fatalf("produce %d of producer %d: %d answers", seq, id, len(rd.ProduceResponses))
		}
		return rd.ProduceResponses[0]
	}
	// two producers taking turns, one record a batch
	for seq := range int32(100) {
		produce(leader, 1, seq, int64(2*seq))
		produce(leader, 2, seq, int64(2*seq+1))
	}
	clone := leader.Clone(log.Clone())
	for _, n := range []*replica.Node{leader, clone} {
		if got := produce(n, 1, 95, 501); got.Error != replica.None || got.BaseOffset != 190 {
			t.Fatalf("a retry of the oldest batch kept: %+v, want the duplicate at 190", got)
		}
		if got := produce(n, 1, 94, 502); got.Error != replica.OutOfOrderSequenceNumber {
			t.Fatalf("a retry of a batch no longer kept: %+v, want OUT_OF_ORDER_SEQUENCE_NUMBER", got)
		}
		if got := produce(n, 1, 100, 500); got.Error != replica.None || got.BaseOffset != 200 {
			t.Fatalf("the next batch: %+v, want appended at 200", got)
		}
		if got := produce(n, 2, 102, 503); got.Error != replica.OutOfOrderSequenceNumber {
			t.Fatalf("a gap: %+v, want OUT_OF_ORDER_SEQUENCE_NUMBER", got)
		}
	}
}
