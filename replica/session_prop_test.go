package replica_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicatest"
)

// sessionOp is one event of a schedule the fetch-session property plays
// twice: the same user-level events (appends, time, crashes, restarts,
// leader changes, cut and healed links, ended sessions), every message
// delivered at once after each, as a network without latency does, but
// for those on a cut link, which are lost.
type sessionOp struct {
	Kind string
	A    int
}

func (o sessionOp) String() string { return fmt.Sprintf("%s/%d", o.Kind, o.A) }

func drawSessionSchedule(t *rapid.T) []sessionOp {
	gen := rapid.Custom(func(t *rapid.T) sessionOp {
		kind := rapid.SampledFrom([]string{"produce", "produce", "produce", "time", "time", "time", "crash", "restart",
			"fence", "elect", "end-sessions", "cut", "heal"}).Draw(t, "kind")
		return sessionOp{Kind: kind, A: rapid.IntRange(0, 99).Draw(t, "pick")}
	})
	return rapid.SliceOfN(gen, 1, 80).Draw(t, "schedule")
}

// sessionWorld is a three-broker cluster with links that can be cut.
type sessionWorld struct {
	env  *replicatest.InteractionEnv
	cuts map[[2]int32]bool
}

// settle delivers everything in flight, and what it causes, dropping what
// travels on a cut link.
func (w *sessionWorld) settle() error {
	for range 1000 {
		var heldLost []*replica.Message // a leader learns that its session's connection is gone
		for _, e := range w.env.Queue {
			if from, to := e.Ends(); e.Msg != nil && e.Msg.Type == replica.MsgFetchHeld && w.cuts[[2]int32{min(from, to), max(from, to)}] {
				heldLost = append(heldLost, e.Msg)
			}
		}
		for c := range w.cuts {
			w.env.Drop(replicatest.Filter{From: c[0], To: c[1]})
			w.env.Drop(replicatest.Filter{From: c[1], To: c[0]})
		}
		for _, m := range heldLost {
			if p, _ := w.env.Peer(m.From); p.Node != nil {
				p.Node.EndFetchSessions(m.To, -1)
			}
		}
		if len(w.env.Queue) == 0 {
			return nil
		}
		w.env.Deliver(replicatest.Any)
	}
	return replicatest.ErrNotStable
}

// cut cuts the link between two brokers; both ends' fetch sessions over
// it end, as a broker ends them when it sees the link gone.
func (w *sessionWorld) cut(a, b int32) {
	w.cuts[[2]int32{min(a, b), max(a, b)}] = true
	for _, end := range [][2]int32{{a, b}, {b, a}} {
		if p, _ := w.env.Peer(end[0]); p.Node != nil {
			p.Node.EndFetchSessions(end[1], w.env.NowMs)
		}
	}
}

// applySession runs one event, then delivers everything in flight. Time
// moves 100 ms at a time, delivering after each step, so that a follower
// doing full fetches asks again as soon as its empty answer arrives, as
// it does over a network.
func (w *sessionWorld) apply(o sessionOp) error {
	env := w.env
	live, down := brokers(env)
	switch o.Kind {
	case "produce":
		if env.Controller.Leader != replica.NoLeader {
			env.Produce(env.Controller.Leader, []int16{1, replica.AcksAll}[o.A%2], 0, []string{fmt.Sprintf("v%d", o.A)}, false)
		}
	case "time":
		for range []int{1, 3, 5, 40, 160}[o.A%5] {
			env.Tick(100)
			if err := w.settle(); err != nil {
				return err
			}
		}
	case "crash":
		if len(live) > 0 {
			env.Crash(live[o.A%len(live)], false, nil, nil)
		}
	case "restart":
		if len(down) > 0 {
			env.Restart(down[o.A%len(down)])
		}
	case "fence":
		if len(down) > 0 {
			env.Fence(down[o.A%len(down)])
		}
	case "elect": // a clean election among the live ISR members
		var eligible []int32
		for _, id := range env.Controller.ISR {
			if slices.Contains(live, id) {
				eligible = append(eligible, id)
			}
		}
		if len(eligible) > 0 {
			env.Elect(eligible[o.A%len(eligible)], nil)
		}
	case "end-sessions": // a leader's session cache evicting, or a fetch failing
		if len(live) > 0 {
			p, _ := env.Peer(live[o.A%len(live)])
			p.Node.EndFetchSessions(replica.NoLeader, env.NowMs)
		}
	case "cut":
		a, b := int32(o.A%3)+1, int32(o.A/3%2+o.A%3+1)%3+1
		w.cut(a, b)
	case "heal":
		w.cuts = map[[2]int32]bool{}
	}
	return w.settle()
}

// replicaState is what the property compares: every broker's log, HW and
// role, the leader's ISR and the controller's.
func replicaState(env *replicatest.InteractionEnv) string {
	var b strings.Builder
	fmt.Fprintf(&b, "controller leader=%d isr=%v\n", env.Controller.Leader, env.Controller.ISR)
	for _, p := range env.Peers {
		fmt.Fprintf(&b, "%d log=%s", p.ID, replicatest.DescribeLog(p.Log, env.Config.Rules))
		if p.Node != nil {
			st := p.Node.Status()
			fmt.Fprintf(&b, " %s hw=%d isr=%v pending=%v", st.Role, st.HighWatermark, st.ISR, st.PendingISR)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestFetchSessionsChangeNothing: a cluster whose leaders hold followers'
// fetches in sessions (KIP-227) and one whose followers fetch in full
// every replica.fetch.wait.max.ms, given the same appends, time, crashes,
// restarts, fencing, leader changes, cut links and ended sessions, hold the same
// logs, high watermarks, ISRs and roles after every event, under every
// rule set that has sessions.
func TestFetchSessionsChangeNothing(t *testing.T) {
	held := 0
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V2_0, replica.V2_1, replica.V3_7, replica.V4}).Draw(t, "rules")
		minISR := rapid.IntRange(1, 3).Draw(t, "min.insync.replicas")
		schedule := drawSessionSchedule(t)
		var worlds [2]*sessionWorld
		for i, full := range []bool{false, true} {
			env, err := replicatest.NewInteractionEnv(3, replica.Config{Rules: rules, MinInsyncReplicas: minISR, FullFetches: full})
			if err != nil {
				t.Fatal(err)
			}
			env.Elect(1, nil)
			if _, err := env.Stabilize(1000); err != nil {
				t.Fatal(err)
			}
			worlds[i] = &sessionWorld{env: env, cuts: map[[2]int32]bool{}}
		}
		for i, o := range schedule {
			for _, w := range worlds {
				if err := w.apply(o); err != nil {
					t.Fatalf("event %d (%v): %v", i, o, err)
				}
			}
			for _, p := range worlds[0].env.Peers {
				if p.Node != nil {
					held += p.Node.HeldFetches()
				}
			}
			if got, want := replicaState(worlds[0].env), replicaState(worlds[1].env); got != want {
				t.Fatalf("under %s rules, after event %d (%v) of %v, with sessions:\n%s\nwith full fetches:\n%s", rules, i, o, schedule[:i+1], got, want)
			}
		}
	})
	if held == 0 {
		t.Fatal("no schedule had a fetch held in a session: the property compared nothing")
	}
}
