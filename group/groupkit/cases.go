package groupkit

import (
	"github.com/kafkalive/kafkalive/group"
)

type cooperativeKnown struct {
	name string
	in   roundInput
}

func tps(topic string, ps ...int32) []group.TopicPartition {
	out := []group.TopicPartition{}
	for _, p := range ps {
		out = append(out, group.TopicPartition{Topic: topic, Partition: p})
	}
	return out
}

func topic(name string, n int32) group.TopicMetadata {
	return group.TopicMetadata{Topic: name, Partitions: n}
}

func member(id string, owned ...group.TopicPartition) Member {
	return Member{MemberID: id, OwnedPartitions: owned}
}

// cooperativeKnownAnswers are Kafka's answers (the library's assignor) for
// the scenarios' rebalances and one case per known mistake.
func cooperativeKnownAnswers() []cooperativeKnown {
	orders := []group.TopicMetadata{topic("orders", 6)}
	return []cooperativeKnown{
		{"eager-vs-cooperative step 0: K1 and K2 start, generation 1 (a fresh sticky assignment deals round-robin)",
			roundInput{[]Member{member("K1"), member("K2")}, orders}},
		{"eager-vs-cooperative steps 3-4: K3 joins; K1 owns p0,p2,p4 and K2 p1,p3,p5; p4 and p5 move, so K3 gets nothing yet",
			roundInput{[]Member{member("K1", tps("orders", 0, 2, 4)...), member("K2", tps("orders", 1, 3, 5)...), member("K3")}, orders}},
		{"eager-vs-cooperative step 5: the follow-up rebalance, p4 and p5 revoked: K3 gets them",
			roundInput{[]Member{member("K1", tps("orders", 0, 2)...), member("K2", tps("orders", 1, 3)...), member("K3")}, orders}},
		{"sticky, 6 partitions, M1 M2 M3 fresh",
			roundInput{[]Member{member("M1"), member("M2"), member("M3")}, orders}},
		{"M2 left a group of three; its partitions are owned by nobody and go at once",
			roundInput{[]Member{member("M1", tps("orders", 0, 3)...), member("M3", tps("orders", 2, 5)...)}, orders}},
		{"crash-is-not-a-goodbye steps A2 and B3: W1 closed (or its session expired); W2 takes p0 at once",
			roundInput{[]Member{member("W2", tps("tasks", 1)...)}, []group.TopicMetadata{topic("tasks", 2)}}},
		{"members listed out of member id order (K3, K1, K2), nothing owned",
			roundInput{[]Member{member("K3"), member("K1"), member("K2")}, orders}},
		{"K1 owns everything, K2 and K3 join: K1 keeps two and revokes the rest",
			roundInput{[]Member{member("K3"), member("K1", tps("orders", 0, 1, 2, 3, 4, 5)...), member("K2")}, orders}},
		{"7 partitions, 3 members owning 3, 3 and 1: only one member may keep maxQuota 3",
			roundInput{[]Member{member("A", tps("orders", 0, 1, 2)...), member("B", tps("orders", 3, 4, 5)...), member("C", tps("orders", 6)...)}, []group.TopicMetadata{topic("orders", 7)}}},
		{"11 partitions, 5 members, A, B and C owning 3 each: only one of them may keep maxQuota 3 (P mod N = 1), the other two keep 2",
			roundInput{[]Member{member("A", tps("t", 0, 1, 2)...), member("B", tps("t", 3, 4, 5)...), member("C", tps("t", 6, 7, 8)...), member("D", tps("t", 9)...), member("E")}, []group.TopicMetadata{topic("t", 11)}}},
		{"5 partitions, A owns 3, B owns 2, C joins: quotas 1 and 2, two members may hold 2",
			roundInput{[]Member{member("A", tps("orders", 0, 1, 2)...), member("B", tps("orders", 3, 4)...), member("C")}, []group.TopicMetadata{topic("orders", 5)}}},
		{"4 partitions, A and B own 2 each, C joins: only one may keep 2",
			roundInput{[]Member{member("A", tps("t", 0, 1)...), member("B", tps("t", 2, 3)...), member("C")}, []group.TopicMetadata{topic("t", 4)}}},
		{"two topics, t0 with 3 partitions and t1 with 2, M1 and M2 fresh",
			roundInput{[]Member{member("M1"), member("M2")}, []group.TopicMetadata{topic("t0", 3), topic("t1", 2)}}},
		{"more members than partitions: 2 partitions, 3 members",
			roundInput{[]Member{member("a"), member("b"), member("c")}, []group.TopicMetadata{topic("t", 2)}}},
		{"a member owns a partition that no longer exists (t-7 of 6): it is ignored",
			roundInput{[]Member{member("A", tps("orders", 0, 7)...), member("B")}, orders}},
		{"a stable group: nothing to move, everyone keeps everything",
			roundInput{[]Member{member("A", tps("orders", 0, 1, 2)...), member("B", tps("orders", 3, 4, 5)...)}, orders}},
		{"no members: an empty assignment", roundInput{nil, orders}},
		{"K2 crashed while K3 joined, in one round: K1 keeps p0-p2 and revokes p3, K3 gets the free p4 and p5 at once",
			roundInput{[]Member{member("K1", tps("orders", 0, 1, 2, 3)...), member("K3")}, orders}},
		{"payments was deleted while A rejoined owning payments-0 and payments-1: they are gone, not kept",
			roundInput{[]Member{member("A", append(tps("orders", 0, 1), tps("payments", 0, 1)...)...), member("B", tps("orders", 2)...)}, orders}},
	}
}
