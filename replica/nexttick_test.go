package replica_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// TestNextTickMsIsWhenTickActs: at every moment of random schedules, on
// every replica, a Tick before NextTickMs changes nothing but the clock
// (no output, the same status and the same next tick, and whatever comes
// next is handled as after SetNow), and a Tick at NextTickMs acts (output,
// or a later NextTickMs): a host may tick each replica only when its time
// comes. Replay: go test ./replica -run TestNextTickMsIsWhenTickActs
// -rapid.seed=N.
func TestNextTickMsIsWhenTickActs(t *testing.T) {
	for _, rules := range []replica.RuleSet{replica.V0_10, replica.V2_0, replica.Modern} {
		t.Run(rules.String(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: rules, MinInsyncReplicas: 2})
				if err != nil {
					t.Fatal(err)
				}
				env.Elect(1, nil)
				for i, o := range drawSchedule(t) {
					apply(env, o)
					for _, p := range env.Peers {
						if p.Node != nil {
							checkNextTick(t, env, p, fmt.Sprintf("after event %d (%v), broker %d", i, o, p.ID))
						}
					}
				}
			})
		})
	}
}

// checkNextTick ticks copies of p's replica before and at its NextTickMs.
func checkNextTick(t *rapid.T, env *replicatest.InteractionEnv, p *replicatest.Peer, where string) {
	if p.Node.HasReady() {
		return // output waiting: its host acts on it before anything else
	}
	next := p.Node.NextTickMs()
	before := next - 1
	if next > env.NowMs+100000 {
		before = env.NowMs + 100000
	}
	if before >= env.NowMs {
		ticked, set := clone(p), clone(p)
		ticked.Tick(before)
		set.SetNow(before)
		if ticked.HasReady() || ticked.NextTickMs() != next {
			t.Fatalf("%s: a Tick at %d, before NextTickMs %d, acted: %+v, next tick %d", where, before, next, ticked.Ready(), ticked.NextTickMs())
		}
		if diff := cmp.Diff(set.Status(), ticked.Status()); diff != "" {
			t.Fatalf("%s: a Tick at %d, before NextTickMs %d, changed the status (-SetNow +Tick):\n%s", where, before, next, diff)
		}
		if diff := cmp.Diff(fetchAfter(set, p.ID), fetchAfter(ticked, p.ID)); diff != "" {
			t.Fatalf("%s: a fetch after a Tick at %d, before NextTickMs %d, is handled otherwise than after SetNow (-SetNow +Tick):\n%s", where, before, next, diff)
		}
	}
	if next == int64(^uint64(0)>>1) || next < env.NowMs {
		return
	}
	at := clone(p)
	at.Tick(next)
	if !at.HasReady() && at.NextTickMs() <= next {
		t.Fatalf("%s: a Tick at NextTickMs %d did nothing, and the next is still %d", where, next, at.NextTickMs())
	}
}

// clone copies p's replica over a copy of its log.
func clone(p *replicatest.Peer) *replica.Node { return p.Node.Clone(p.Log.Clone()) }

// fetchAfter hands n a follower's fetch from its log start, and says
// what n answers or parks (its next tick).
func fetchAfter(n *replica.Node, id int32) string {
	from := int32(1)
	if id == 1 {
		from = 2
	}
	st := n.Status()
	err := n.Step(replica.Message{Type: replica.MsgFetch, From: from, To: id, CorrelationID: 99, FetchOffset: st.LogEndOffset,
		CurrentLeaderEpoch: st.LeaderEpoch, LastFetchedEpoch: replica.NoEpoch, MaxWaitMs: 500})
	return fmt.Sprintf("%v %+v next %d", err, n.Ready(), n.NextTickMs())
}
