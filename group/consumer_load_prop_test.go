package group_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// moveCoordinator is a coordinator failover: what the old coordinator
// wrote is read back from its bytes by a new one, which takes the groups
// over (LoadGroups). The new coordinator must hold every group as the old
// one did, but for the timers, which Kafka restarts at the load.
func (w *consumerWorld) moveCoordinator() {
	w.take()
	var recs []group.ConsumerGroupRecord
	for _, kv := range w.log {
		r, err := group.ReadConsumerGroupRecord(kv[0], kv[1])
		if err != nil {
			w.t.Fatalf("a record the coordinator wrote does not read: %v", err)
		}
		recs = append(recs, r)
	}
	c, err := group.NewConsumerGroupCoordinator(w.cfg, w.store, w.nowMs)
	if err != nil {
		w.t.Fatalf("NewConsumerGroupCoordinator: %v", err)
	}
	c.SetTopics(w.topics)
	loaded := c.LoadGroups(recs)
	before, after := w.coord.Groups(), c.Groups()
	if diff := cmp.Diff(before, after, cmpopts.EquateEmpty(),
		cmpopts.IgnoreFields(group.ConsumerMemberStatus{}, "SessionDeadlineMs", "RebalanceDeadlineMs")); diff != "" {
		w.t.Fatalf("the group loaded from %d records differs from the one that wrote them (-before +loaded):\n%s", len(recs), diff)
	}
	if diff := cmp.Diff(group.HeldConsumerGroups(w.coord), group.HeldConsumerGroups(c), cmpopts.EquateEmpty()); diff != "" {
		w.t.Fatalf("the coordinator that loaded %d records holds another group than the one that wrote them (-before +loaded):\n%s", len(recs), diff)
	}
	var ids []string
	for _, g := range before {
		ids = append(ids, g.GroupID)
	}
	if !slices.Equal(ids, loaded) {
		w.t.Fatalf("LoadGroups reported %v, the coordinator had %v", loaded, ids)
	}
	for _, g := range after {
		for _, m := range g.Members {
			if m.SessionDeadlineMs != w.nowMs+int64(w.cfg.SessionTimeoutMs) {
				w.t.Fatalf("member %s's session ends at %d, want a full session from the load (%d)", m.MemberID, m.SessionDeadlineMs, w.nowMs+int64(w.cfg.SessionTimeoutMs))
			}
		}
	}
	w.coord = c
}

// TestConsumerGroupSurvivesCoordinatorMoves: whatever members join, leave,
// crash, commit and stall, and however often the coordinator moves (a new
// one loads the records the old one wrote, from their bytes), the loaded
// group equals the one before the move but for its timers; and the world
// still settles with every subscribed partition owned once, so members
// that carry on with their epochs after a move are neither fenced into a
// rebalance nor given a partition twice. An empty group may be deleted;
// its tombstones make the next coordinator load nothing.
func TestConsumerGroupSurvivesCoordinatorMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := newConsumerWorld(t, rapid.SampledFrom([]string{"uniform", "range"}).Draw(t, "assignor"))
		actions := w.actions()
		actions["move-coordinator"] = func(t *rapid.T) { w.moveCoordinator() }
		actions["delete-empty-group"] = func(t *rapid.T) {
			if g, ok := w.coord.Group("g"); !ok || len(g.Members) > 0 || len(w.procs) > 0 {
				t.Skip("no empty group, or a process that would find its group gone (a fatal error)")
			}
			if code := w.coord.DeleteGroup("g"); code != group.None {
				t.Fatalf("DeleteGroup of an empty group: %s", code)
			}
		}
		t.Repeat(actions)
		w.moveCoordinator()
		w.settle()
		w.checkConverged()
		w.moveCoordinator()
		if g, ok := w.coord.Group("g"); ok && len(w.live) > 0 {
			epochs := map[string]int32{}
			for _, m := range g.Members {
				epochs[m.MemberID] = m.MemberEpoch
			}
			w.settle()
			after, _ := w.coord.Group("g")
			for _, m := range after.Members {
				if e, ok := epochs[m.MemberID]; !ok || e != m.MemberEpoch {
					t.Fatalf("after a move of a settled group, member %s went from epoch %d to %d (members before: %v): a rebalance",
						m.MemberID, e, m.MemberEpoch, slices.Sorted(maps.Keys(epochs)))
				}
			}
		}
	})
}
