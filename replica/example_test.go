package replica_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/replica"
)

// Two replicas and one acks=all record, driven by hand: the caller moves
// every message from one node's Ready to the other's Step.
func Example() {
	nodes := map[int32]*replica.Node{}
	for _, id := range []int32{1, 2} {
		n, err := replica.NewNode(replica.Config{ID: id, Rules: replica.Modern}, replica.NewMemLog())
		if err != nil {
			panic(err)
		}
		nodes[id] = n
	}
	p := replica.LeaderAndISR{Leader: 1, LeaderEpoch: 0, ISR: []int32{1, 2}, Replicas: []int32{1, 2}}
	_ = nodes[1].BecomeLeader(p)
	_ = nodes[2].BecomeFollower(p)
	_ = nodes[1].Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 1,
		Acks: replica.AcksAll, Records: []replica.Record{{Value: []byte("hello")}}})

	// Deliver until nothing is left to send (fetches that find nothing park).
	for progress := true; progress; {
		progress = false
		for _, id := range []int32{1, 2} {
			rd := nodes[id].Ready()
			nodes[id].Advance(rd)
			for _, r := range rd.ProduceResponses {
				fmt.Printf("producer: offset %d, %s\n", r.BaseOffset, r.Error)
			}
			for _, m := range rd.Messages {
				fmt.Printf("%d->%d %s offset=%d records=%d hw=%d\n", m.From, m.To, m.Type, m.FetchOffset, len(m.Entries), m.HighWatermark)
				_ = nodes[m.To].Step(m)
				progress = true
			}
		}
	}
	for _, id := range []int32{1, 2} {
		s := nodes[id].Status()
		fmt.Printf("broker %d: %s LEO %d HW %d\n", id, s.Role, s.LogEndOffset, s.HighWatermark)
	}
	// Output:
	// 2->1 Fetch offset=0 records=0 hw=0
	// 1->2 FetchResponse offset=0 records=1 hw=0
	// 2->1 Fetch offset=1 records=0 hw=0
	// producer: offset 0, NONE
	// broker 1: leader LEO 1 HW 1
	// broker 2: follower LEO 1 HW 0
}
