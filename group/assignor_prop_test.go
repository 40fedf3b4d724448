package group_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// world is a drawn group: topics, members and what each owned before.
type world struct {
	topics    []group.TopicMetadata
	members   []group.MemberSubscription
	identical bool
}

var topicNames = []string{"orders", "payments", "users"}

// drawWorld draws topics, members and (for some members) a previous
// assignment made by assignor over an earlier membership, so ownership is
// realistic: unique owners, one generation.
func drawWorld(t *rapid.T, a group.Assignor) world {
	nTopics := rapid.IntRange(1, 3).Draw(t, "topicCount")
	var w world
	for _, name := range topicNames[:nTopics] {
		w.topics = append(w.topics, group.TopicMetadata{Topic: name, Partitions: rapid.Int32Range(1, 9).Draw(t, "partitions of "+name)})
	}
	w.identical = rapid.Bool().Draw(t, "identicalSubscriptions")
	before := rapid.IntRange(0, 5).Draw(t, "membersBefore")
	after := rapid.IntRange(1, 6).Draw(t, "membersAfter")
	sub := func(i int) []string {
		if w.identical {
			return topicNames[:nTopics]
		}
		return rapid.SliceOfNDistinct(rapid.SampledFrom(topicNames[:nTopics]), 1, nTopics, rapid.ID).Draw(t, fmt.Sprintf("topics of m%d", i))
	}
	var prev []group.MemberSubscription
	for i := range before {
		prev = append(prev, group.MemberSubscription{MemberID: fmt.Sprintf("m%d", i), Subscription: group.Subscription{Topics: sub(i), Generation: -1}})
	}
	prevAssignment := a.Assign(prev, w.topics)
	// Members after: some of the earlier ones stay (keeping what they owned), new ones join.
	for i := range after {
		id := fmt.Sprintf("m%d", i+rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("id shift of member %d", i)))
		m := group.MemberSubscription{MemberID: id, Subscription: group.Subscription{Topics: sub(100 + i), Generation: 1}}
		if owned, ok := prevAssignment[id]; ok {
			m.Topics = prev[slices.IndexFunc(prev, func(p group.MemberSubscription) bool { return p.MemberID == id })].Topics
			m.OwnedPartitions = owned
		}
		if !slices.ContainsFunc(w.members, func(x group.MemberSubscription) bool { return x.MemberID == id }) {
			w.members = append(w.members, m)
		}
	}
	// identical subscriptions must stay identical for the balance promise
	if w.identical {
		for i := range w.members {
			w.members[i].Topics = topicNames[:nTopics]
		}
	}
	return w
}

func subscribed(w world, id string, topic string) bool {
	for _, m := range w.members {
		if m.MemberID == id {
			return slices.Contains(m.Topics, topic)
		}
	}
	return false
}

func allOf(w world) []group.TopicPartition {
	var out []group.TopicPartition
	for _, tm := range w.topics {
		for _, m := range w.members {
			if slices.Contains(m.Topics, tm.Topic) {
				for p := range tm.Partitions {
					out = append(out, group.TopicPartition{Topic: tm.Topic, Partition: p})
				}
				break
			}
		}
	}
	return out
}

// checkOwnedOnce fails unless every subscribed partition is assigned exactly
// once, to a member subscribed to its topic (withheld ones excepted).
func checkOwnedOnce(t *rapid.T, name string, w world, got group.Assignment, withheld map[group.TopicPartition]bool) {
	owner := map[group.TopicPartition]string{}
	for _, m := range w.members {
		if _, ok := got[m.MemberID]; !ok {
			t.Fatalf("%s: member %s has no entry in the assignment", name, m.MemberID)
		}
	}
	for id, ps := range got {
		for _, tp := range ps {
			if prev, dup := owner[tp]; dup {
				t.Fatalf("%s: partition %s given to both %s and %s", name, tp, prev, id)
			}
			owner[tp] = id
			if !subscribed(w, id, tp.Topic) {
				t.Fatalf("%s: partition %s given to %s, which does not subscribe to %s", name, tp, id, tp.Topic)
			}
		}
	}
	for _, tp := range allOf(w) {
		if _, ok := owner[tp]; !ok && !withheld[tp] {
			t.Fatalf("%s: partition %s is owned by nobody", name, tp)
		}
	}
}

// checkBalanced fails when two members' partition counts differ by more than one.
func checkBalanced(t *rapid.T, name string, got group.Assignment) {
	lo, hi := -1, -1
	for _, ps := range got {
		if lo < 0 || len(ps) < lo {
			lo = len(ps)
		}
		if len(ps) > hi {
			hi = len(ps)
		}
	}
	if hi-lo > 1 {
		t.Fatalf("%s: members hold between %d and %d partitions; the assignor promises balance within one: %v", name, lo, hi, got)
	}
}

// checkSticky fails when a member keeps fewer of its previous partitions than
// min(previous, ⌊P/N⌋).
func checkSticky(t *rapid.T, name string, w world, got group.Assignment) {
	minQuota := len(allOf(w)) / len(w.members)
	for _, m := range w.members {
		kept := len(m.OwnedPartitions) - len(group.Difference(m.OwnedPartitions, got[m.MemberID]))
		if want := min(len(m.OwnedPartitions), minQuota); kept < want {
			t.Fatalf("%s: %s owned %v and keeps only %d of them (should keep at least %d): got %v",
				name, m.MemberID, m.OwnedPartitions, kept, want, got[m.MemberID])
		}
	}
}

func TestRangeProperties(t *testing.T) {
	a := group.RangeAssignor{}
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, a)
		got := a.Assign(w.members, w.topics)
		checkOwnedOnce(t, "range", w, got, nil)
		if w.identical {
			for _, tm := range w.topics {
				perTopic := group.Assignment{}
				for id, ps := range got {
					perTopic[id] = slices.DeleteFunc(slices.Clone(ps), func(tp group.TopicPartition) bool { return tp.Topic != tm.Topic })
				}
				checkBalanced(t, "range per topic "+tm.Topic, perTopic)
			}
		}
	})
}

func TestRoundRobinProperties(t *testing.T) {
	a := group.RoundRobinAssignor{}
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, a)
		got := a.Assign(w.members, w.topics)
		checkOwnedOnce(t, "roundrobin", w, got, nil)
		if w.identical {
			checkBalanced(t, "roundrobin", got)
		}
	})
}

func TestStickyProperties(t *testing.T) {
	a := group.StickyAssignor{}
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, a)
		got := a.Assign(w.members, w.topics)
		checkOwnedOnce(t, "sticky", w, got, nil)
		if w.identical {
			checkBalanced(t, "sticky", got)
			checkSticky(t, "sticky", w, got)
		}
	})
}

func TestCooperativeStickyProperties(t *testing.T) {
	a := group.CooperativeStickyAssignor{}
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, a)
		got := a.Assign(w.members, w.topics)
		claimedBy := map[group.TopicPartition]string{}
		for _, m := range w.members {
			for _, tp := range m.OwnedPartitions {
				claimedBy[tp] = m.MemberID
			}
		}
		withheld := map[group.TopicPartition]bool{}
		for id, ps := range got {
			for _, tp := range ps {
				if c, ok := claimedBy[tp]; ok && c != id {
					t.Fatalf("cooperative-sticky gave %s to %s in the same round %s still owns it", tp, id, c)
				}
			}
		}
		target := group.StickyAssignor{}.Assign(w.members, w.topics)
		for id, ps := range target {
			for _, tp := range ps {
				if c, ok := claimedBy[tp]; ok && c != id {
					withheld[tp] = true
				}
			}
		}
		checkOwnedOnce(t, "cooperative-sticky first round", w, got, withheld)
		if w.identical {
			checkSticky(t, "cooperative-sticky", w, got)
		}
		// Next rounds: every member revoked what it was not given and owns its
		// assignment. With identical subscriptions one more round hands over
		// everything; with different ones the group must settle within a few.
		rounds := 1
		for ; rounds <= 8; rounds++ {
			for i, m := range w.members {
				w.members[i].OwnedPartitions = got[m.MemberID]
				w.members[i].Generation = int32(rounds + 1)
			}
			next := a.Assign(w.members, w.topics)
			settled := cmp.Equal(next, got)
			got = next
			if settled {
				break
			}
		}
		checkOwnedOnce(t, fmt.Sprintf("cooperative-sticky after %d rounds", rounds), w, got, nil)
		if w.identical {
			if rounds > 2 {
				t.Fatalf("cooperative-sticky with identical subscriptions needed %d rebalances to settle; two must do", rounds)
			}
			checkBalanced(t, "cooperative-sticky second round", got)
		}
	})
}

// TestAssignorsIgnoreInputOrder: assignors sort their inputs, so shuffled
// members and topics give the same assignment.
func TestAssignorsIgnoreInputOrder(t *testing.T) {
	for _, a := range []group.Assignor{group.RangeAssignor{}, group.RoundRobinAssignor{}, group.StickyAssignor{}, group.CooperativeStickyAssignor{}} {
		t.Run(a.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				w := drawWorld(t, a)
				want := a.Assign(w.members, w.topics)
				members := rapid.Permutation(w.members).Draw(t, "shuffled members")
				topics := rapid.Permutation(w.topics).Draw(t, "shuffled topics")
				if diff := cmp.Diff(want, a.Assign(members, topics)); diff != "" {
					t.Fatalf("%s gave another assignment for the same group listed in another order (-sorted +shuffled):\n%s", a.Name(), diff)
				}
			})
		})
	}
}

// TestAssignorsSurviveJunk: duplicate members, unknown topics, claims on
// partitions that do not exist and negative counts never panic and never
// assign a partition that does not exist.
func TestAssignorsSurviveJunk(t *testing.T) {
	for _, a := range []group.Assignor{group.RangeAssignor{}, group.RoundRobinAssignor{}, group.StickyAssignor{}, group.CooperativeStickyAssignor{}} {
		t.Run(a.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				names := []string{"a", "b", "ghost"}
				topics := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) group.TopicMetadata {
					return group.TopicMetadata{Topic: rapid.SampledFrom(names).Draw(t, "topic"), Partitions: rapid.Int32Range(-2, 5).Draw(t, "partitions")}
				}), 0, 4).Draw(t, "topics")
				members := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) group.MemberSubscription {
					return group.MemberSubscription{
						MemberID: rapid.SampledFrom([]string{"x", "y", "z"}).Draw(t, "memberID"),
						Subscription: group.Subscription{
							Topics: rapid.SliceOfN(rapid.SampledFrom(names), 0, 3).Draw(t, "subscribed"),
							OwnedPartitions: rapid.SliceOfN(rapid.Custom(func(t *rapid.T) group.TopicPartition {
								return group.TopicPartition{Topic: rapid.SampledFrom(names).Draw(t, "owned topic"), Partition: rapid.Int32Range(-1, 7).Draw(t, "owned partition")}
							}), 0, 4).Draw(t, "owned"),
							Generation: rapid.Int32Range(-1, 3).Draw(t, "generation"),
						},
					}
				}), 0, 4).Draw(t, "members")
				exists := map[string]int32{}
				for _, tm := range topics {
					if _, ok := exists[tm.Topic]; !ok && tm.Partitions > 0 {
						exists[tm.Topic] = tm.Partitions
					}
				}
				seen := map[group.TopicPartition]bool{}
				for id, ps := range a.Assign(members, topics) {
					for _, tp := range ps {
						if tp.Partition < 0 || tp.Partition >= exists[tp.Topic] {
							t.Fatalf("%s assigned %s to %s, a partition that does not exist", a.Name(), tp, id)
						}
						if seen[tp] {
							t.Fatalf("%s assigned %s twice", a.Name(), tp)
						}
						seen[tp] = true
					}
				}
			})
		})
	}
}
