package group_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/clonetest"
)

// groupOp is one thing that happens to consumers of two groups, as plain
// numbers so that it means the same on any copy of the world.
type groupOp struct {
	kind          string
	who, grp, arg int
}

var groupOpKinds = []string{"start", "start", "crash", "close", "restart", "stall", "tick", "tick", "tick",
	"commit", "simple-commit", "fetch", "delete", "partitions"}

func drawGroupOp(t *rapid.T) groupOp {
	return groupOp{kind: rapid.SampledFrom(groupOpKinds).Draw(t, "op"), who: rapid.IntRange(0, 5).Draw(t, "consumer"),
		grp: rapid.IntRange(0, 1).Draw(t, "group"), arg: rapid.IntRange(0, 999).Draw(t, "arg")}
}

var cloneAssignors = []string{"range", "roundrobin", "sticky", "cooperative-sticky"}

// apply runs op on e and returns what e logged meanwhile.
func (op groupOp) apply(e *env) string {
	name, gid := fmt.Sprintf("C%d", op.who), fmt.Sprintf("g%d", op.grp)
	sm := e.members[name]
	alive := sm != nil && !sm.crashed && sm.m.State() != group.Left
	switch {
	case op.kind == "start" && sm == nil:
		cfg := group.DefaultMemberConfig(gid, name, []string{"orders", "audit"}[:1+op.arg%2], group.Assignors()[cloneAssignors[(op.grp+op.arg)%4]])
		cfg.SessionTimeoutMs, cfg.MaxPollIntervalMs = 10000, 30000
		if op.arg%3 == 0 {
			cfg.GroupInstanceID = "i-" + name
		}
		e.start(name, cfg)
	case op.kind == "restart" && sm != nil && !alive:
		e.start(name, sm.cfg)
	case op.kind == "crash" && alive:
		sm.crashed = true
	case op.kind == "close" && alive:
		sm.m.Close()
		e.deliver()
	case op.kind == "stall" && alive:
		sm.stuck = !sm.stuck
	case op.kind == "tick":
		e.advance(int64(500+op.arg*40), 1000)
	case op.kind == "commit" && alive:
		sm.m.Commit(commitsOf(sm.m.Owned(), op.arg))
		e.deliver()
	case op.kind == "simple-commit":
		tp := group.TopicPartition{Topic: "orders", Partition: int32(op.arg % 3)}
		if err := e.coord.Step("admin", group.OffsetCommit{GroupID: gid, GenerationID: -1, Offsets: commitsOf([]group.TopicPartition{tp}, op.arg)}); err != nil {
			e.t.Fatalf("simple commit: %v", err)
		}
		e.deliver()
	case op.kind == "fetch" && alive:
		sm.m.FetchCommitted(sm.m.Owned())
		e.deliver()
	case op.kind == "delete":
		e.logf("delete %s: %v", gid, e.coord.DeleteGroup(gid))
		e.deliver()
	case op.kind == "partitions":
		e.metadata = []group.TopicMetadata{{Topic: "orders", Partitions: int32(1 + op.arg%6)}, {Topic: "audit", Partitions: 2}}
		for _, n := range e.names() {
			e.members[n].m.SetMetadata(e.metadata)
		}
	}
	out := e.out.String()
	e.out.Reset()
	return out
}

// commitsOf is offsets for tps, made up from n.
func commitsOf(tps []group.TopicPartition, n int) []group.PartitionOffset {
	var out []group.PartitionOffset
	for i, tp := range tps {
		out = append(out, group.PartitionOffset{TopicPartition: tp, Offset: int64(n + i), LeaderEpoch: -1, Metadata: fmt.Sprint("m", n)})
	}
	return out
}

// cloneEnv copies a world: the store, the coordinator over the store's
// copy, every consumer, the clock, the metadata and the network's losses.
func cloneEnv(t tb, e *env, lossEvery int) *env {
	c := &env{t: t, cfg: e.cfg, nowMs: e.nowMs, store: e.store.Clone(), groups: e.groups.Clone(), storeError: e.storeError, members: map[string]*simMember{},
		metadata: slices.Clone(e.metadata), lastSeen: map[string]string{}, commitOnRevoke: e.commitOnRevoke, sent: e.sent}
	loseEvery(c, lossEvery)
	for g, s := range e.lastSeen {
		c.lastSeen[g] = s
	}
	c.coord = e.coord.Clone(c.store)
	for name, sm := range e.members {
		m, err := sm.m.Clone(nil)
		if err != nil {
			t.Fatalf("clone %s: %v", name, err)
		}
		copied := *sm
		copied.m = m
		c.members[name] = &copied
	}
	return c
}

// observeGroups is everything the world shows: each group as the
// coordinator describes it, the committed offsets, each consumer's status.
func observeGroups(e *env) string {
	var b strings.Builder
	fmt.Fprintf(&b, "now=%d coordinator=%d ready=%v\n", e.nowMs, e.coord.NowMs(), e.coord.HasReady())
	for _, g := range e.coord.Groups() {
		fmt.Fprintf(&b, "%s\n", clonetest.Text(g))
		for _, tp := range e.store.CommittedPartitions(g.GroupID) {
			po, _ := e.store.Committed(g.GroupID, tp)
			fmt.Fprintf(&b, "  committed %s\n", clonetest.Text(po))
		}
	}
	for _, n := range e.names() {
		sm := e.members[n]
		fmt.Fprintf(&b, "%s crashed=%v stuck=%v ready=%v %s\n", n, sm.crashed, sm.stuck, sm.m.HasReady(), clonetest.Text(sm.m.Status()))
	}
	return b.String()
}

// newGroupsEnv is a coordinator with no consumers yet, over a network that
// loses every lossEvery-th message (none if 0).
func newGroupsEnv(t *rapid.T, commitOnRevoke bool, lossEvery int) *env {
	e := newEnv(t, group.DefaultConfig())
	e.metadata = []group.TopicMetadata{{Topic: "orders", Partitions: 3}, {Topic: "audit", Partitions: 2}}
	e.commitOnRevoke = commitOnRevoke
	loseEvery(e, lossEvery)
	return e
}

// loseEvery makes e's network lose every n-th message it carries (none if
// 0), counting in e.sent.
func loseEvery(e *env, n int) {
	if n > 0 {
		e.lose = func() bool { e.sent++; return e.sent%n == 0 }
	}
}

// TestCloneEvolvesAsAReplay builds a coordinator with two groups of
// consumers by random lives (joins, crashes, closes, restarts, stalls, time,
// commits, offset fetches, deletions, new partitions), clones the world
// (store, coordinator, consumers), then changes the original and the clone
// apart, in random turns, and checks after every event that each shows
// exactly what a fresh world replaying its own history shows. The
// coordinator and each consumer share with their clones nothing but what
// Clone says (clonetest).
func TestCloneEvolvesAsAReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		commitOnRevoke := rapid.Bool().Draw(t, "commit on revoke")
		lossEvery := rapid.SampledFrom([]int{0, 7, 23}).Draw(t, "lose every")
		e := newGroupsEnv(t, commitOnRevoke, lossEvery)
		var before []groupOp
		for range rapid.IntRange(0, 40).Draw(t, "events before the clone") {
			op := drawGroupOp(t)
			op.apply(e)
			before = append(before, op)
		}
		c := cloneEnv(t, e, lossEvery)
		checkGroupsShared(t, e, c)
		sides := []*env{e, c}
		replays := [2]*env{newGroupsEnv(t, commitOnRevoke, lossEvery), newGroupsEnv(t, commitOnRevoke, lossEvery)}
		for _, r := range replays {
			for _, op := range before {
				op.apply(r)
			}
		}
		for i := range rapid.IntRange(0, 40).Draw(t, "events after") {
			side := rapid.IntRange(0, 1).Draw(t, "side")
			if rapid.IntRange(0, 19).Draw(t, "clone again") == 0 {
				sides[side] = cloneEnv(t, sides[side], lossEvery)
			}
			op := drawGroupOp(t)
			if got, want := op.apply(sides[side]), op.apply(replays[side]); got != want {
				t.Fatalf("event %d %+v on side %d logged\n%s\nwhere a replay logs\n%s", i, op, side, got, want)
			}
			for s := range sides {
				if got, want := observeGroups(sides[s]), observeGroups(replays[s]); got != want {
					t.Fatalf("after event %d %+v on side %d, side %d differs from its replay (-replay +side):\n%s", i, op, side, s, cmp.Diff(want, got))
				}
			}
		}
	})
}

// checkGroupsShared fails if the coordinator's clone, or a consumer's,
// reaches memory the original reaches, except what their Clone methods share
// on purpose: members' protocols and assignments (replaced, never changed in
// place), the contents of answers and requests not yet taken, a consumer's
// subscribed topics and assignors.
func checkGroupsShared(t *rapid.T, e, c *env) {
	sharedFields := []string{".protocols", ".assignment", ".assignmentData", ".Topics", ".Assignors"}
	check := func(what string, orig, clone any) {
		for _, s := range clonetest.Shared(orig, clone) {
			field := s.Path[strings.LastIndex(s.Path, "."):]
			if strings.Contains(field, "[") {
				field = field[:strings.Index(field, "[")]
			}
			switch {
			case slices.Contains(sharedFields, field):
			case strings.HasPrefix(s.Path, "*.ready.Responses[") || strings.HasPrefix(s.Path, "*.ready.Requests["):
			case s.Type() == reflect.TypeFor[[]byte]():
			default:
				t.Fatalf("%s's clone shares %s with it", what, s)
			}
		}
	}
	check("the coordinator", e.coord, c.coord)
	check("the store", e.store, c.store)
	for name, sm := range e.members {
		check(name, sm.m, c.members[name].m)
	}
}

// TestMemberCloneTakesItsOwnersAssignors: a member's clone can be given its
// owner's copies of its assignors (the same names and protocols, in the same
// order), and refuses others.
func TestMemberCloneTakesItsOwnersAssignors(t *testing.T) {
	m, err := group.NewMember(group.DefaultMemberConfig("g", "c", []string{"orders"}, group.RangeAssignor{}, group.CooperativeStickyAssignor{}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Clone([]group.Assignor{group.RangeAssignor{}, group.CooperativeStickyAssignor{}}); err != nil {
		t.Errorf("the same assignors: %v", err)
	}
	for _, as := range [][]group.Assignor{
		{group.RangeAssignor{}},
		{group.CooperativeStickyAssignor{}, group.RangeAssignor{}},
		{group.RangeAssignor{}, group.StickyAssignor{}},
	} {
		if _, err := m.Clone(as); err == nil {
			t.Errorf("a clone with assignors %v was made for a member of range and cooperative-sticky", as)
		}
	}
}

// BenchmarkCoordinatorClone clones a coordinator hosting 1 or 100 stable
// groups of three consumers each (their offsets are the store's, not
// copied): a clone copies each group and member.
func BenchmarkCoordinatorClone(b *testing.B) {
	for _, groups := range []int{1, 100} {
		e := newEnv(b, group.DefaultConfig())
		e.metadata = []group.TopicMetadata{{Topic: "orders", Partitions: 6}}
		for g := range groups {
			for i := range 3 {
				name := fmt.Sprintf("C%d-%d", g, i)
				e.start(name, group.DefaultMemberConfig(fmt.Sprintf("g%d", g), name, []string{"orders"}, group.CooperativeStickyAssignor{}))
			}
		}
		e.advance(10_000, 1000)
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.coord.Clone(e.store)
			}
		})
	}
}
