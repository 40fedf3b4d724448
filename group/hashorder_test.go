package group

import (
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJavaMapOrder: the order a java.util.HashMap iterates its keys in, as
// OpenJDK 17 printed it for each list put in the order given (new HashMap<>(),
// then put each, then keySet()): buckets, growth past twelve keys, colliding
// hashes in insertion order, a ninth key in one bucket growing the table, and
// code points outside the BMP (two UTF-16 units).
func TestJavaMapOrder(t *testing.T) {
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("consumer-%d", i+1)
	}
	var nine []string
	for i := range 10 {
		var b strings.Builder
		for j := 3; j >= 0; j-- {
			b.WriteString([]string{"Aa", "BB"}[(i>>j)&1])
		}
		nine = append(nine, b.String())
	}
	nine = append(nine, "q", "consumer-3", "C2-2")
	for _, tc := range []struct {
		name string
		put  []string
		want string
	}{
		{"fruit", []string{"apple", "banana", "cherry"}, "banana apple cherry"},
		{"world", []string{"C1-1", "C2-2", "C3-3", "C1-4", "C2-5", "C3-6"}, "C3-6 C2-5 C3-3 C1-4 C2-2 C1-1"},
		{"many", many, "consumer-20 consumer-11 consumer-10 consumer-6 consumer-17 consumer-5 consumer-16 consumer-4 consumer-19 consumer-3 consumer-18 consumer-2 consumer-13 consumer-1 consumer-12 consumer-15 consumer-14 consumer-9 consumer-8 consumer-7"},
		{"collide", []string{"BB", "Aa", "x", "BBBB", "AaAa", "AaBB", "BBAa"}, "BB Aa x BBBB AaAa AaBB BBAa"},
		{"nine", nine, "AaAaAaAa AaAaAaBB AaAaBBAa AaAaBBBB AaBBAaAa AaBBAaBB AaBBBBAa AaBBBBBB BBAaAaAa BBAaAaBB consumer-3 C2-2 q"},
		{"unicode", []string{"ü-1", "😀-2", "g-3"}, "ü-1 😀-2 g-3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ms []MemberSubscription
			for _, id := range tc.put {
				ms = append(ms, MemberSubscription{MemberID: id})
			}
			ms = append(ms, MemberSubscription{MemberID: tc.put[0], GroupInstanceID: "again"}) // put again: keeps its place and its first value
			var got []string
			for _, m := range javaMapOrder(ms) {
				got = append(got, m.MemberID)
				if m.GroupInstanceID != "" {
					t.Errorf("%s: the repeated member replaced the first", m.MemberID)
				}
			}
			if diff := cmp.Diff(tc.want, strings.Join(got, " ")); diff != "" {
				t.Errorf("javaMapOrder (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJavaStringHash: String.hashCode values Java gives.
func TestJavaStringHash(t *testing.T) {
	for s, want := range map[string]int32{"": 0, "hello": 99162322, "Aa": 2112, "BB": 2112, "banana": -1396355227, "😀": 1772899} {
		if got := javaStringHash(s); got != want {
			t.Errorf("javaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestMemberTableOrder: the Scala 2.13 mutable.HashMap order of a group's
// members, worked by hand from HashMap.put0 and growTable: by bucket, within
// a bucket by hash, equal hashes in put order; the table grows to 32 at the
// twelfth put and never shrinks, so a group that once had twelve members
// keeps the longer table's order.
func TestMemberTableOrder(t *testing.T) {
	var tab memberTable
	ids := []string{}
	put := func(id string) {
		tab.put(id, len(ids))
		ids = append(ids, id)
	}
	// "BB" and "Aa" share hash 2112 (bucket 0), "x" is 120 (bucket 8).
	for _, id := range []string{"x", "BB", "Aa"} {
		put(id)
	}
	if diff := cmp.Diff([]string{"BB", "Aa", "x"}, tab.order(ids)); diff != "" {
		t.Errorf("equal hashes (-want +got):\n%s", diff)
	}
	// "C1-10" is in bucket 9 of 16 but 25 of 32; "C2-2" in 11 of both.
	tab, ids = memberTable{}, nil
	put("C2-2")
	put("C1-10")
	if diff := cmp.Diff([]string{"C1-10", "C2-2"}, tab.order(ids)); diff != "" {
		t.Errorf("table of 16 (-want +got):\n%s", diff)
	}
	for i := range 10 {
		put(fmt.Sprintf("m-%d", i))
	}
	if tab.length != 32 {
		t.Fatalf("after twelve puts the table is %d long, want 32", tab.length)
	}
	for _, id := range ids[2:] {
		tab.forget(id)
	}
	ids = ids[:2]
	if diff := cmp.Diff([]string{"C2-2", "C1-10"}, tab.order(ids)); diff != "" {
		t.Errorf("table of 32 after the others left (-want +got):\n%s", diff)
	}
}

var orderSeed = flag.Int64("order.seed", 1, "the seed of TestJoinGroupListsMembersInMapOrder")

// TestJoinGroupListsMembersInMapOrder: the leader's JoinGroup answer lists the
// members in the coordinator's map order, and a leader's assignor gets them
// in the Java consumer's map order; the built-in assignors give the same
// assignment whatever order they meet the members in.
func TestJoinGroupListsMembersInMapOrder(t *testing.T) {
	seed := *orderSeed
	r := rand.New(rand.NewSource(seed))
	for range 200 {
		n := 1 + r.Intn(15)
		var tab memberTable
		var ids []string
		for len(ids) < n {
			id := fmt.Sprintf("%s-%d", []string{"C1", "C2", "billing", "consumer"}[r.Intn(4)], 1+r.Intn(40))
			if slices.Contains(ids, id) {
				continue
			}
			tab.put(id, len(ids))
			ids = append(ids, id)
		}
		order := tab.order(ids)
		if diff := cmp.Diff(sortedCopy(ids), sortedCopy(order)); diff != "" {
			t.Fatalf("seed %d: the map order lost or added members (-want +got):\n%s\nreplay: go test ./group/ -run TestJoinGroupListsMembersInMapOrder -order.seed=%d", seed, diff, seed)
		}
		var ms []MemberSubscription
		for _, id := range order {
			ms = append(ms, MemberSubscription{MemberID: id, Subscription: Subscription{Topics: []string{"orders"}, Generation: -1}})
		}
		topics := []TopicMetadata{{Topic: "orders", Partitions: int32(1 + r.Intn(12))}}
		for _, a := range []Assignor{RangeAssignor{}, RoundRobinAssignor{}, StickyAssignor{}, CooperativeStickyAssignor{}} {
			want := a.Assign(sortedMembers(ms), topics)
			got := a.Assign(javaMapOrder(ms), topics)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("seed %d: %s depends on the order it meets the members in (-sorted +map order):\n%s\nreplay: go test ./group/ -run TestJoinGroupListsMembersInMapOrder -order.seed=%d", seed, a.Name(), diff, seed)
			}
		}
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func sortedMembers(ms []MemberSubscription) []MemberSubscription {
	out := slices.Clone(ms)
	slices.SortFunc(out, func(a, b MemberSubscription) int { return strings.Compare(a.MemberID, b.MemberID) })
	return out
}
