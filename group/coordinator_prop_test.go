package group_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// op is one thing that happens to a coordinator: a request from somewhere,
// or time passing.
type op struct {
	from    string
	req     group.Request
	advance int64
}

// drawOp draws anything a confused or malicious client could send: known and
// unknown member ids, any generation, static or not, empty group ids.
func drawOp(t *rapid.T, i int) op {
	label := func(s string) string { return fmt.Sprintf("%s %d", s, i) }
	groupID := rapid.SampledFrom([]string{"g", "h", "i", "j", ""}).Draw(t, label("group"))
	member := rapid.SampledFrom([]string{"", "c-1", "c-2", "c-3", "w1-1", "w1-2", "ghost"}).Draw(t, label("member"))
	instance := rapid.SampledFrom([]string{"", "", "w1"}).Draw(t, label("instance"))
	gen := rapid.Int32Range(-1, 4).Draw(t, label("generation"))
	from := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, label("from"))
	assignor := rapid.SampledFrom([]string{"range", "cooperative-sticky"}).Draw(t, label("assignor"))
	tp := group.TopicPartition{Topic: "t", Partition: rapid.Int32Range(0, 2).Draw(t, label("partition"))}
	switch rapid.IntRange(0, 6).Draw(t, label("kind")) {
	case 0:
		if rapid.IntRange(0, 4).Draw(t, label("long wait")) == 0 { // past a new member's 5-minute join timeout
			return op{advance: rapid.Int64Range(60000, 400000).Draw(t, label("ms"))}
		}
		return op{advance: rapid.Int64Range(0, 60000).Draw(t, label("ms"))}
	case 1:
		return op{from: from, req: group.JoinGroup{GroupID: groupID, MemberID: member, GroupInstanceID: instance, ClientID: "c",
			SessionTimeoutMs: rapid.SampledFrom([]int32{10000, 45000, 100}).Draw(t, label("session")), RebalanceTimeoutMs: 30000,
			ProtocolType: "consumer", Protocols: []group.Protocol{{Name: assignor, Subscription: group.Subscription{Topics: []string{"t"}, OwnedPartitions: []group.TopicPartition{tp}, Generation: gen}}}}}
	case 2:
		return op{from: from, req: group.SyncGroup{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance,
			Assignments: []group.MemberAssignment{{MemberID: member, Partitions: []group.TopicPartition{tp}}}}}
	case 3:
		return op{from: from, req: group.Heartbeat{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance}}
	case 4:
		return op{from: from, req: group.LeaveGroup{GroupID: groupID, MemberID: member, GroupInstanceID: instance}}
	case 5:
		return op{from: from, req: group.OffsetCommit{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance,
			Offsets: []group.PartitionOffset{{TopicPartition: tp, Offset: rapid.Int64Range(-1, 100).Draw(t, label("offset"))}}}}
	default:
		return op{from: from, req: group.OffsetFetch{GroupID: groupID}}
	}
}

// run applies ops to a fresh coordinator and returns everything it said,
// the members each tick removed and every group status after each op.
// With every, each Tick looks at every group, and the members removed are
// found by comparing the groups before and after it.
func run(t *rapid.T, ops []op, every bool) []string {
	store := &group.MemoryOffsetStore{}
	c, err := group.NewCoordinator(group.DefaultConfig(), store, 0)
	if err != nil {
		t.Fatalf("NewCoordinator: %v", err)
	}
	if every {
		group.TickEveryGroup(c)
	}
	var trace []string
	lastGen := map[string]int32{}
	for i, o := range ops {
		if o.req == nil {
			trace = append(trace, fmt.Sprintf("%d removed %v", i, tick(c, c.NowMs()+o.advance, every)))
		} else if err := c.Step(o.from, o.req); err != nil {
			t.Fatalf("op %d: Step(%T) refused a well-typed request: %v", i, o.req, err)
		}
		for c.HasReady() {
			rd := c.Ready()
			for _, rec := range rd.Commits {
				if err := store.Commit(rec); err != nil {
					t.Fatalf("op %d: storing %+v: %v", i, rec, err)
				}
			}
			for _, rec := range rd.Groups {
				c.GroupStored(rec.StoreID, group.None)
			}
			trace = append(trace, fmt.Sprintf("%d %+v", i, rd))
		}
		for _, g := range c.Groups() {
			if g.Generation < lastGen[g.GroupID] {
				t.Fatalf("op %d: group %s went back from generation %d to %d", i, g.GroupID, lastGen[g.GroupID], g.Generation)
			}
			lastGen[g.GroupID] = g.Generation
			if g.State == group.Stable && len(g.Members) == 0 {
				t.Fatalf("op %d: group %s is Stable with no members", i, g.GroupID)
			}
			trace = append(trace, fmt.Sprintf("%+v", g))
		}
	}
	return trace
}

// TestCoordinatorTakesAnyRequest: no sequence of requests and ticks panics,
// generations never go back, and the same sequence gives the same trace
// (no map order leaks into the output).
func TestCoordinatorTakesAnyRequest(t *testing.T) {
	rapid.Check(t, anyRequests)
}

// FuzzCoordinator runs the same property under go test -fuzz.
func FuzzCoordinator(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(anyRequests))
}

func anyRequests(t *rapid.T) {
	n := rapid.IntRange(1, 60).Draw(t, "requests")
	ops := make([]op, n)
	for i := range ops {
		ops[i] = drawOp(t, i)
	}
	first, second := run(t, ops, false), run(t, ops, false)
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("the same requests gave two different traces (-first +second):\n%s", diff)
	}
}

// TestTickLooksAtWhatIsDue: a coordinator whose Ticks look only at the
// groups touched or due answers, removes and keeps exactly what one that
// looks at every group on every Tick does, and TickRemoved names the
// members a comparison of the groups before and after the Tick finds.
// Replay: go test ./group -run TestTickLooksAtWhatIsDue -rapid.seed=N.
func TestTickLooksAtWhatIsDue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 80).Draw(t, "requests")
		ops := make([]op, n)
		for i := range ops {
			ops[i] = drawOp(t, i)
		}
		if diff := cmp.Diff(run(t, ops, true), run(t, ops, false)); diff != "" {
			t.Fatalf("ticking only what is due changed what the coordinator did (-every group +due only):\n%s", diff)
		}
	})
}

// tick ticks c to ms and returns the members removed: TickRemoved's, or
// with every those the groups before and after the Tick differ by.
func tick(c *group.Coordinator, ms int64, every bool) []group.Removed {
	if !every {
		return c.TickRemoved(ms)
	}
	before := c.Groups()
	c.Tick(ms)
	var out []group.Removed
	for _, g := range before {
		after, _ := c.Group(g.GroupID)
		for _, m := range g.Members {
			if !slices.ContainsFunc(after.Members, func(a group.MemberStatus) bool { return a.MemberID == m.MemberID }) {
				out = append(out, group.Removed{GroupID: g.GroupID, MemberID: m.MemberID})
			}
		}
	}
	return out
}
