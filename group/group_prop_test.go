package group_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// groupWorld drives one group of simulated consumers through random joins,
// crashes, clean closes, restarts, stalls and time.
type groupWorld struct {
	e         *env
	assignors string
	next      int
}

func (w *groupWorld) live() []string {
	var out []string
	for _, n := range w.e.names() {
		sm := w.e.members[n]
		if !sm.crashed && sm.m.State() != group.Left {
			out = append(out, n)
		}
	}
	return out
}

func (w *groupWorld) start(t *rapid.T) {
	if len(w.live()) >= 5 {
		t.Skip("group is full enough")
	}
	w.next++
	name := fmt.Sprintf("C%d", w.next)
	cfg := group.DefaultMemberConfig("g", name, []string{"orders"}, group.Assignors()[w.assignors])
	cfg.SessionTimeoutMs, cfg.MaxPollIntervalMs = 10000, 30000
	if rapid.Bool().Draw(t, "static") {
		cfg.GroupInstanceID = "i-" + name
	}
	w.e.start(name, cfg)
}

func (w *groupWorld) pick(t *rapid.T, from []string) *simMember {
	if len(from) == 0 {
		t.Skip("nobody to pick")
	}
	return w.e.members[rapid.SampledFrom(from).Draw(t, "consumer")]
}

// deleteGroup is what a user does to delete the group: close every live
// consumer, wait a second, delete the group (refused unless it is Empty),
// and start the consumers again, which join it anew within 5 s.
func (w *groupWorld) deleteGroup(*rapid.T) {
	live := w.live()
	for _, n := range live {
		w.e.members[n].m.Close()
	}
	w.e.deliver()
	w.e.advance(1000, 1000)
	w.e.logf("delete group g: %s", w.e.coord.DeleteGroup("g").String())
	w.e.deliver()
	for _, n := range live {
		w.e.start(n, w.e.members[n].cfg)
	}
	w.e.advance(5000, 1000) // they join anew: group.initial.rebalance.delay.ms and a retry
}

// checkNoSharedOwner is the cooperative safety rule (KIP-429): no partition is owned by two live consumers of the same generation at
// any moment, counting a partition as owned until its owner has finished
// revoking it. Owners of different generations can overlap in Kafka too: a
// consumer stuck in processing is removed when the rebalance timeout ends,
// which may be a moment before its own max.poll.interval.ms fires; the
// generation then fences its commits (CommitFailedException).
func (w *groupWorld) checkNoSharedOwner(t *rapid.T) {
	type owner struct {
		name       string
		generation int32
	}
	owners := map[group.TopicPartition]owner{}
	for _, n := range w.live() {
		m := w.e.members[n].m
		if extra := group.Difference(m.Fetchable(), m.Owned()); len(extra) > 0 {
			t.Fatalf("%s fetches %s that it does not own", n, group.FormatPartitions(extra))
		}
		for _, tp := range m.Owned() {
			if other, ok := owners[tp]; ok && other.generation == m.Generation() {
				t.Fatalf("%s and %s both own %s in generation %d at t=%dms (%s):\n%s",
					other.name, n, tp, m.Generation(), w.e.nowMs, w.assignors, tail(w.e.out.String(), 40))
			}
			owners[tp] = owner{n, m.Generation()}
		}
	}
}

func tail(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(parts[max(0, len(parts)-lines):], "\n")
}

// TestGroupNeverSharesAPartition runs random member lives against the
// coordinator, over a network that may lose one message in ten, with the
// group's metadata appends held for a while and the group deleted and
// joined anew now and then, and checks after every message that no
// partition has two owners in one generation, and at the end that a quiet
// group settles with every partition fetched. (Without the check that an
// append's end acts only on the group that made it, -rapid.checks=2000
// finds the recreated group Stable with its partitions assigned to none.)
func TestGroupNeverSharesAPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := group.DefaultConfig()
		cfg.MemberIDSeed = rapid.Uint64Range(1, 1<<20).Draw(t, "member id seed") // Kafka's UUID member ids
		w := &groupWorld{
			e:         newEnv(t, cfg),
			assignors: rapid.SampledFrom([]string{"range", "roundrobin", "sticky", "cooperative-sticky"}).Draw(t, "assignor"),
		}
		w.e.checkEachDelivery = func() { w.checkNoSharedOwner(t) }
		if rapid.Bool().Draw(t, "lossy network") {
			w.e.lose = func() bool { return rapid.IntRange(0, 9).Draw(t, "lose message") == 0 }
		}
		partitions := rapid.Int32Range(1, 8).Draw(t, "partitions")
		w.e.metadata = []group.TopicMetadata{{Topic: "orders", Partitions: partitions}}
		t.Repeat(map[string]func(*rapid.T){
			"start": w.start,
			"crash": func(t *rapid.T) { w.pick(t, w.live()).crashed = true },
			"close": func(t *rapid.T) {
				w.pick(t, w.live()).m.Close()
				w.e.deliver()
			},
			"restart": func(t *rapid.T) {
				var gone []string
				for _, n := range w.e.names() {
					if sm := w.e.members[n]; sm.crashed || sm.m.State() == group.Left {
						gone = append(gone, n)
					}
				}
				name := rapid.SampledFrom(append(gone, "")).Draw(t, "restarted")
				if name == "" {
					t.Skip("nobody to restart")
				}
				w.e.start(name, w.e.members[name].cfg)
			},
			"stall": func(t *rapid.T) { sm := w.pick(t, w.live()); sm.stuck = !sm.stuck },
			// The group's metadata appends wait (cut-off in-sync replicas)
			// until released, and the Empty group may be deleted meanwhile:
			// an append's end must act only on the group that made it.
			"hold appends":    func(*rapid.T) { w.e.holdStores = true },
			"release appends": func(*rapid.T) { w.e.releaseStores() },
			"delete group":    w.deleteGroup,
			"tick": func(t *rapid.T) {
				w.e.advance(rapid.Int64Range(500, 40000).Draw(t, "ms"), 1000)
			},
			"": w.checkNoSharedOwner,
		})
		w.settle(t, partitions)
	})
}

// settle unsticks everyone, lets time pass, and checks that the group is
// Stable with each partition fetched by exactly one live consumer.
func (w *groupWorld) settle(t *rapid.T, partitions int32) {
	for _, n := range w.live() {
		w.e.members[n].stuck = false
	}
	w.e.lose = nil
	w.e.releaseStores()
	w.e.advance(120000, 1000)
	w.checkNoSharedOwner(t)
	live := w.live()
	if len(live) == 0 {
		return
	}
	g, ok := w.e.coord.Group("g")
	if !ok || g.State != group.Stable {
		t.Fatalf("after 120 s of quiet the group is %+v, not Stable:\n%s", g, tail(w.e.out.String(), 40))
	}
	var fetched []group.TopicPartition
	for _, n := range live {
		fetched = append(fetched, w.e.members[n].m.Fetchable()...)
	}
	slices.SortFunc(fetched, group.CompareTopicPartitions)
	if int32(len(fetched)) != partitions {
		t.Fatalf("after 120 s of quiet %d live consumers fetch %s of %d partitions:\n%s",
			len(live), group.FormatPartitions(fetched), partitions, tail(w.e.out.String(), 40))
	}
}
