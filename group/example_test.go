package group_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/group"
)

// The package documentation's picture, cooperative-sticky: K3 joins K1 and K2. In the first rebalance p4 and
// p5 would change owner, so they are withheld; after K1 and K2 revoke them,
// the second rebalance hands them to K3.
func ExampleCooperativeStickyAssignor() {
	topics := []group.TopicMetadata{{Topic: "orders", Partitions: 6}}
	sub := func(id string, gen int32, owned ...int32) group.MemberSubscription {
		s := group.MemberSubscription{MemberID: id, Subscription: group.Subscription{Topics: []string{"orders"}, Generation: gen}}
		for _, p := range owned {
			s.OwnedPartitions = append(s.OwnedPartitions, group.TopicPartition{Topic: "orders", Partition: p})
		}
		return s
	}
	a := group.CooperativeStickyAssignor{}
	first := a.Assign([]group.MemberSubscription{sub("K1", 1, 0, 2, 4), sub("K2", 1, 1, 3, 5), sub("K3", -1)}, topics)
	second := a.Assign([]group.MemberSubscription{sub("K1", 2, 0, 2), sub("K2", 2, 1, 3), sub("K3", 2)}, topics)
	for _, id := range []string{"K1", "K2", "K3"} {
		fmt.Printf("%s gen 2 %-21s gen 3 %s\n", id, group.FormatPartitions(first[id]), group.FormatPartitions(second[id]))
	}
	// Output:
	// K1 gen 2 [orders-0 orders-2]   gen 3 [orders-0 orders-2]
	// K2 gen 2 [orders-1 orders-3]   gen 3 [orders-1 orders-3]
	// K3 gen 2 []                    gen 3 [orders-4 orders-5]
}

// Range gives the first members the extra partition of every topic.
func ExampleRangeAssignor() {
	members := []group.MemberSubscription{
		{MemberID: "M2", Subscription: group.Subscription{Topics: []string{"t0"}}},
		{MemberID: "M1", Subscription: group.Subscription{Topics: []string{"t0"}}},
		{MemberID: "M3", Subscription: group.Subscription{Topics: []string{"t0"}}},
	}
	got := group.RangeAssignor{}.Assign(members, []group.TopicMetadata{{Topic: "t0", Partitions: 7}})
	for _, id := range []string{"M1", "M2", "M3"} {
		fmt.Println(id, group.FormatPartitions(got[id]))
	}
	// Output:
	// M1 [t0-0 t0-1 t0-2]
	// M2 [t0-3 t0-4]
	// M3 [t0-5 t0-6]
}

// Lag is what kafka-consumer-groups --describe prints: HW − committed.
func ExampleLag() {
	for _, committed := range []int64{10, 20, -1} {
		if lag, ok := group.Lag(20, committed); ok {
			fmt.Printf("committed %d: lag %d\n", committed, lag)
		} else {
			fmt.Printf("no commit: lag -\n")
		}
	}
	// Output:
	// committed 10: lag 10
	// committed 20: lag 0
	// no commit: lag -
}

// The driving loop the package documentation describes: a coordinator, two
// consumers, a FIFO network that delivers at once, and a clock in 1 s steps.
func Example_drivingLoop() {
	store, groups := &group.MemoryOffsetStore{}, &group.MemoryGroupStore{}
	coord, _ := group.NewCoordinator(group.DefaultConfig(), store, 0)
	members := map[string]*group.Member{}
	names := []string{"c1", "c2"}
	for _, name := range names {
		m, _ := group.NewMember(group.DefaultMemberConfig("g", name, []string{"orders"}, group.RangeAssignor{}), 0)
		m.SetMetadata([]group.TopicMetadata{{Topic: "orders", Partitions: 4}})
		members[name] = m
	}
	deliver := func() {
		for moved := true; moved; {
			moved = false
			for _, name := range names {
				m := members[name]
				if !m.HasReady() {
					continue
				}
				moved = true
				rd := m.Ready()
				for _, req := range rd.Requests {
					_ = coord.Step(name, req)
				}
				if len(rd.Assigned) > 0 {
					fmt.Println(name, "assigned", group.FormatPartitions(rd.Assigned))
				}
				if len(rd.Revoke) > 0 {
					m.Revoked(nil) // commit positions here
				}
			}
			if coord.HasReady() {
				moved = true
				rd := coord.Ready()
				for _, rec := range rd.Commits {
					_ = store.Commit(rec) // persist before answering
				}
				for _, rec := range rd.Groups {
					groups.Store(rec) // append, then say it is stored
					coord.GroupStored(rec.StoreID, group.None)
				}
				for _, out := range rd.Responses {
					_ = members[out.To].Step(out.Response)
				}
			}
		}
	}
	for now := int64(0); now <= 10000; now += 1000 {
		coord.Tick(now)
		for _, name := range names {
			members[name].Tick(now)
			members[name].Poll(now)
		}
		deliver()
	}
	g, _ := coord.Group("g")
	fmt.Println(g.State, "generation", g.Generation)
	// Output:
	// c1 assigned [orders-0 orders-1]
	// c2 assigned [orders-2 orders-3]
	// Stable generation 1
}

// One committed offset as it is stored in the compacted __consumer_offsets
// topic, in the partition whose leader coordinates the group.
func ExampleAppendOffsetCommitValue() {
	rec := group.OffsetCommitRecord{
		Group:             "workers",
		PartitionOffset:   group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: "tasks", Partition: 0}, Offset: 10, LeaderEpoch: 0},
		CommitTimestampMs: 10000,
	}
	p, _ := group.OffsetsPartition(rec.Group, 50)
	fmt.Printf("__consumer_offsets-%d\n", p)
	fmt.Printf("key   % x\n", group.AppendOffsetCommitKey(nil, rec.Group, rec.TopicPartition))
	fmt.Printf("value % x\n", group.AppendOffsetCommitValue(nil, rec))
	// Output:
	// __consumer_offsets-41
	// key   00 01 00 07 77 6f 72 6b 65 72 73 00 05 74 61 73 6b 73 00 00 00 00
	// value 00 03 00 00 00 00 00 00 00 0a 00 00 00 00 00 00 00 00 00 00 00 00 27 10
}
