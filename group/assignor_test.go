package group_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/group"
)

// tps builds partitions of one topic.
func tps(topic string, ps ...int32) []group.TopicPartition {
	out := []group.TopicPartition{}
	for _, p := range ps {
		out = append(out, group.TopicPartition{Topic: topic, Partition: p})
	}
	return out
}

func fresh(topics []string, ids ...string) []group.MemberSubscription {
	var out []group.MemberSubscription
	for _, id := range ids {
		out = append(out, group.MemberSubscription{MemberID: id, Subscription: group.Subscription{Topics: topics, Generation: -1}})
	}
	return out
}

func owning(id string, gen int32, topics []string, owned []group.TopicPartition) group.MemberSubscription {
	return group.MemberSubscription{MemberID: id, Subscription: group.Subscription{Topics: topics, OwnedPartitions: owned, Generation: gen}}
}

// TestAssignorWorkedExamples: the assignors' worked examples, Kafka's own
// test cases where named, and the eager-versus-cooperative group of the
// package documentation (six "orders" partitions, a third member joins).
func TestAssignorWorkedExamples(t *testing.T) {
	t0 := []string{"t0"}
	t01 := []string{"t0", "t1"}
	abc := []string{"a", "b", "c"}
	orders := []string{"orders"}
	sixOrders := []group.TopicMetadata{{Topic: "orders", Partitions: 6}}
	tests := []struct {
		name     string
		assignor group.Assignor
		members  []group.MemberSubscription
		topics   []group.TopicMetadata
		want     group.Assignment
	}{
		{
			name: "range: 7 partitions over 3, the first member gets the extra", assignor: group.RangeAssignor{},
			members: fresh(t0, "M3", "M1", "M2"), topics: []group.TopicMetadata{{Topic: "t0", Partitions: 7}},
			want: group.Assignment{"M1": tps("t0", 0, 1, 2), "M2": tps("t0", 3, 4), "M3": tps("t0", 5, 6)},
		},
		{
			name: "range: three one-partition topics all go to the first member", assignor: group.RangeAssignor{},
			members: fresh(abc, "M1", "M2"), topics: []group.TopicMetadata{{Topic: "a", Partitions: 1}, {Topic: "b", Partitions: 1}, {Topic: "c", Partitions: 1}},
			want: group.Assignment{"M1": append(append(tps("a", 0), tps("b", 0)...), tps("c", 0)...), "M2": {}},
		},
		{
			name: "range: t0(3) t1(2) over 2", assignor: group.RangeAssignor{},
			members: fresh(t01, "M1", "M2"), topics: []group.TopicMetadata{{Topic: "t0", Partitions: 3}, {Topic: "t1", Partitions: 2}},
			want: group.Assignment{"M1": append(tps("t0", 0, 1), tps("t1", 0)...), "M2": append(tps("t0", 2), tps("t1", 1)...)},
		},
		{
			name: "roundrobin: t0(3) t1(2) over 2", assignor: group.RoundRobinAssignor{},
			members: fresh(t01, "M2", "M1"), topics: []group.TopicMetadata{{Topic: "t1", Partitions: 2}, {Topic: "t0", Partitions: 3}},
			want: group.Assignment{"M1": append(tps("t0", 0, 2), tps("t1", 1)...), "M2": append(tps("t0", 1), tps("t1", 0)...)},
		},
		{
			name: "roundrobin: three one-partition topics spread", assignor: group.RoundRobinAssignor{},
			members: fresh(abc, "M1", "M2"), topics: []group.TopicMetadata{{Topic: "a", Partitions: 1}, {Topic: "b", Partitions: 1}, {Topic: "c", Partitions: 1}},
			want: group.Assignment{"M1": append(tps("a", 0), tps("c", 0)...), "M2": tps("b", 0)},
		},
		{
			// The example in Kafka's RoundRobinAssignor javadoc.
			name: "roundrobin: different subscriptions skip members", assignor: group.RoundRobinAssignor{},
			members: []group.MemberSubscription{
				fresh([]string{"t0"}, "C0")[0], fresh([]string{"t0", "t1"}, "C1")[0], fresh([]string{"t0", "t1", "t2"}, "C2")[0],
			},
			topics: []group.TopicMetadata{{Topic: "t0", Partitions: 1}, {Topic: "t1", Partitions: 2}, {Topic: "t2", Partitions: 3}},
			want:   group.Assignment{"C0": tps("t0", 0), "C1": tps("t1", 0), "C2": append(tps("t1", 1), tps("t2", 0, 1, 2)...)},
		},
		{
			name: "sticky: fresh 6 over 3 is round-robin order", assignor: group.StickyAssignor{},
			members: fresh(t0, "M1", "M2", "M3"), topics: []group.TopicMetadata{{Topic: "t0", Partitions: 6}},
			want: group.Assignment{"M1": tps("t0", 0, 3), "M2": tps("t0", 1, 4), "M3": tps("t0", 2, 5)},
		},
		{
			// Kept partitions first, then the dealt ones (Kafka's list order).
			name: "sticky: M2 leaves, survivors keep theirs and share M2's (two move)", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{owning("M1", 1, t0, tps("t0", 0, 3)), owning("M3", 1, t0, tps("t0", 2, 5))},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 6}},
			want:    group.Assignment{"M1": tps("t0", 0, 3, 1), "M3": tps("t0", 2, 5, 4)},
		},
		{
			name: "roundrobin: the same M2 departure moves four", assignor: group.RoundRobinAssignor{},
			members: []group.MemberSubscription{owning("M1", 1, t0, tps("t0", 0, 3)), owning("M3", 1, t0, tps("t0", 2, 5))},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 6}},
			want:    group.Assignment{"M1": tps("t0", 0, 2, 4), "M3": tps("t0", 1, 3, 5)},
		},
		{
			name: "six orders, step 0: sticky, two fresh members", assignor: group.StickyAssignor{},
			members: fresh(orders, "E1", "E2"), topics: sixOrders,
			want: group.Assignment{"E1": tps("orders", 0, 2, 4), "E2": tps("orders", 1, 3, 5)},
		},
		{
			name: "six orders, step 3 eager-g: E3 joins, sticky target", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{
				owning("E1", 1, orders, tps("orders", 0, 2, 4)), owning("E2", 1, orders, tps("orders", 1, 3, 5)), fresh(orders, "E3")[0],
			},
			topics: sixOrders,
			want:   group.Assignment{"E1": tps("orders", 0, 2), "E2": tps("orders", 1, 3), "E3": tps("orders", 4, 5)},
		},
		{
			name: "six orders, step 3 coop-g: p4 and p5 withheld from K3", assignor: group.CooperativeStickyAssignor{},
			members: []group.MemberSubscription{
				owning("K1", 1, orders, tps("orders", 0, 2, 4)), owning("K2", 1, orders, tps("orders", 1, 3, 5)), fresh(orders, "K3")[0],
			},
			topics: sixOrders,
			want:   group.Assignment{"K1": tps("orders", 0, 2), "K2": tps("orders", 1, 3), "K3": {}},
		},
		{
			name: "six orders, step 5 coop-g: second rebalance hands p4 p5 to K3", assignor: group.CooperativeStickyAssignor{},
			members: []group.MemberSubscription{
				owning("K1", 2, orders, tps("orders", 0, 2)), owning("K2", 2, orders, tps("orders", 1, 3)), owning("K3", 2, orders, nil),
			},
			topics: sixOrders,
			want:   group.Assignment{"K1": tps("orders", 0, 2), "K2": tps("orders", 1, 3), "K3": tps("orders", 4, 5)},
		},
		{
			name: "six orders: range over 2", assignor: group.RangeAssignor{},
			members: fresh(orders, "E1", "E2"), topics: sixOrders,
			want: group.Assignment{"E1": tps("orders", 0, 1, 2), "E2": tps("orders", 3, 4, 5)},
		},
		{
			name: "six orders: range over 3", assignor: group.RangeAssignor{},
			members: fresh(orders, "E1", "E2", "E3"), topics: sixOrders,
			want: group.Assignment{"E1": tps("orders", 0, 1), "E2": tps("orders", 2, 3), "E3": tps("orders", 4, 5)},
		},
		{
			name: "range: static members sort by instance id, before dynamic ones", assignor: group.RangeAssignor{},
			members: []group.MemberSubscription{
				{MemberID: "a-dynamic", Subscription: group.Subscription{Topics: orders}},
				{MemberID: "z-9", GroupInstanceID: "w1", Subscription: group.Subscription{Topics: orders}},
				{MemberID: "b-1", GroupInstanceID: "w2", Subscription: group.Subscription{Topics: orders}},
			},
			topics: sixOrders,
			want:   group.Assignment{"z-9": tps("orders", 0, 1), "b-1": tps("orders", 2, 3), "a-dynamic": tps("orders", 4, 5)},
		},
		{
			name: "sticky: a partition claimed twice in one generation is owned by neither", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{owning("M1", 3, t0, tps("t0", 0, 1)), owning("M2", 3, t0, tps("t0", 1))},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 4}},
			want:    group.Assignment{"M1": tps("t0", 0, 1), "M2": tps("t0", 2, 3)},
		},
		{
			// Kafka's AbstractStickyAssignorTest.testAssignmentWithConflictingPreviousGenerations
			// asserts sizes 2/2/2, consumer2 ⊆ [0 1 2], consumer3 ⊆ [3 4 5].
			name: "sticky: Kafka's conflicting previous generations case", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{
				owning("consumer1", 1, t0, tps("t0", 0, 1, 4)), owning("consumer2", 2, t0, tps("t0", 0, 1, 2)), owning("consumer3", 2, t0, tps("t0", 3, 4, 5)),
			},
			topics: []group.TopicMetadata{{Topic: "t0", Partitions: 6}},
			want:   group.Assignment{"consumer1": tps("t0", 2, 5), "consumer2": tps("t0", 0, 1), "consumer3": tps("t0", 3, 4)},
		},
		{
			// Kafka's testSchemaBackwardCompatibility: an owner without a
			// generation (old user data) still keeps its partition.
			name: "sticky: Kafka's old-schema owner keeps its partition", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{
				owning("consumer1", 1, t0, tps("t0", 0, 2)), owning("consumer2", -1, t0, tps("t0", 1)), fresh(t0, "consumer3")[0],
			},
			topics: []group.TopicMetadata{{Topic: "t0", Partitions: 3}},
			want:   group.Assignment{"consumer1": tps("t0", 0), "consumer2": tps("t0", 1), "consumer3": tps("t0", 2)},
		},
		{
			// CooperativeStickyAssignor.adjustAssignment withholds only
			// partitionsTransferringOwnership: B's generation-2 claim on p1
			// lost to A's generation 3, so A keeps p1 at once.
			name: "cooperative-sticky: a stale claim does not hold back the newer owner", assignor: group.CooperativeStickyAssignor{},
			members: []group.MemberSubscription{owning("A", 3, t0, tps("t0", 0, 1)), owning("B", 2, t0, tps("t0", 1, 2)), owning("C", 3, t0, tps("t0", 3))},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 4}},
			want:    group.Assignment{"A": tps("t0", 0, 1), "B": tps("t0", 2), "C": tps("t0", 3)},
		},
		{
			// A releases p1 beyond its quota: it goes to the new member C only
			// in the next rebalance, after A revoked it.
			name: "cooperative-sticky: a partition released beyond the quota is withheld", assignor: group.CooperativeStickyAssignor{},
			members: []group.MemberSubscription{owning("A", 3, t0, tps("t0", 0, 1, 2)), owning("B", 3, t0, tps("t0", 3)), fresh(t0, "C")[0]},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 4}},
			want:    group.Assignment{"A": tps("t0", 0, 1), "B": tps("t0", 3), "C": {}},
		},
		{
			// Different subscriptions (computePartitionsTransferringOwnership):
			// t0-0 and t0-1 move from A, which listed them, to B, which did
			// not: both are withheld until A has revoked them.
			name: "cooperative-sticky, different subscriptions: moved partitions are withheld", assignor: group.CooperativeStickyAssignor{},
			members: []group.MemberSubscription{owning("A", 3, t01, append(tps("t0", 0, 1), tps("t1", 0, 1)...)), owning("B", 3, t0, nil)},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 2}, {Topic: "t1", Partitions: 2}},
			want:    group.Assignment{"A": tps("t1", 0, 1), "B": {}},
		},
		{
			name: "sticky: the newer generation's claim wins", assignor: group.StickyAssignor{},
			members: []group.MemberSubscription{owning("M1", 2, t0, tps("t0", 0, 1)), owning("M2", 3, t0, tps("t0", 1))},
			topics:  []group.TopicMetadata{{Topic: "t0", Partitions: 4}},
			want:    group.Assignment{"M1": tps("t0", 0, 2), "M2": tps("t0", 1, 3)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.assignor.Assign(tt.members, tt.topics)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s.Assign mismatch (-want +got):\n%s", tt.assignor.Name(), diff)
			}
		})
	}
}

// TestStickyHistories plays rebalances one after another, each member
// listing as owned its last assignment in the order it was given (the eager
// sticky assignor's user data) with that generation, and checks each
// generation's assignment in Kafka's list order.
func TestStickyHistories(t *testing.T) {
	type generation struct {
		members []string // who joins this rebalance
		want    group.Assignment
	}
	tests := []struct {
		name        string
		partitions  int32
		generations []generation
	}{
		{
			// AbstractStickyAssignor.assignOwnedPartitions keeps a prefix of
			// A's list [0 2 1 3], not its lowest partitions [0 1]; B's stale
			// generation-1 claim on 1 and 3 loses to A's generation 2.
			name: "A,B then A alone then A,B,C: A keeps the first two it was given", partitions: 4,
			generations: []generation{
				{[]string{"A", "B"}, group.Assignment{"A": tps("t", 0, 2), "B": tps("t", 1, 3)}},
				{[]string{"A"}, group.Assignment{"A": tps("t", 0, 2, 1, 3)}},
				{[]string{"A", "B", "C"}, group.Assignment{"A": tps("t", 0, 2), "B": tps("t", 1), "C": tps("t", 3)}},
			},
		},
		{
			name: "B keeps the head of its list [3 4 5 0 1 2]; A's stale claim counts for nothing", partitions: 6,
			generations: []generation{
				{[]string{"A"}, group.Assignment{"A": tps("t", 0, 1, 2, 3, 4, 5)}},
				{[]string{"A", "B"}, group.Assignment{"A": tps("t", 0, 1, 2), "B": tps("t", 3, 4, 5)}},
				{[]string{"B"}, group.Assignment{"B": tps("t", 3, 4, 5, 0, 1, 2)}},
				{[]string{"A", "B", "C"}, group.Assignment{"A": tps("t", 0, 2), "B": tps("t", 3, 4), "C": tps("t", 1, 5)}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type memory struct {
				owned []group.TopicPartition
				gen   int32
			}
			last := map[string]memory{}
			topics := []group.TopicMetadata{{Topic: "t", Partitions: tt.partitions}}
			for i, g := range tt.generations {
				var members []group.MemberSubscription
				for _, id := range g.members {
					m, ok := last[id]
					if !ok {
						m.gen = -1
					}
					members = append(members, owning(id, m.gen, []string{"t"}, m.owned))
				}
				got := group.StickyAssignor{}.Assign(members, topics)
				if diff := cmp.Diff(g.want, got); diff != "" {
					t.Fatalf("generation %d (members %v) (-want +got):\n%s", i+1, g.members, diff)
				}
				for id, owned := range got {
					last[id] = memory{owned: owned, gen: int32(i + 1)}
				}
			}
		})
	}
}

func TestAssignorsByName(t *testing.T) {
	want := map[string]string{
		"range": "eager", "roundrobin": "eager", "sticky": "eager", "cooperative-sticky": "cooperative",
	}
	got := map[string]string{}
	for name, a := range group.Assignors() {
		got[name] = a.Protocol().String()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Assignors() mismatch (-want +got):\n%s", diff)
	}
}
