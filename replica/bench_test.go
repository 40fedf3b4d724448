package replica_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/replica"
)

// BenchmarkReplicationRound measures one acks=all record through a leader
// and two followers: the produce, the parked fetches completing, the
// followers' next fetches and the HW advance. Messages move by hand, as a
// cluster would move them, without any printing.
func BenchmarkReplicationRound(b *testing.B) {
	for _, rules := range []replica.RuleSet{replica.V0_10, replica.Modern} {
		b.Run(rules.String(), func(b *testing.B) {
			nodes := map[int32]*replica.Node{}
			p := replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2, 3}, Replicas: []int32{1, 2, 3}}
			for _, id := range p.Replicas {
				n, err := replica.NewNode(replica.Config{ID: id, Rules: rules}, replica.NewMemLog())
				if err != nil {
					b.Fatal(err)
				}
				nodes[id] = n
			}
			if err := nodes[1].BecomeLeader(p); err != nil {
				b.Fatal(err)
			}
			for _, id := range []int32{2, 3} {
				if err := nodes[id].BecomeFollower(p); err != nil {
					b.Fatal(err)
				}
			}
			record := []replica.Record{{Value: []byte("value")}}
			deliver := func() int {
				moved := 0
				for _, id := range p.Replicas {
					rd := nodes[id].Ready()
					nodes[id].Advance(rd)
					for _, m := range rd.Messages {
						if err := nodes[m.To].Step(m); err != nil {
							b.Fatal(err)
						}
						moved++
					}
				}
				return moved
			}
			for deliver() > 0 {
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				m := replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: int64(i), Acks: replica.AcksAll, Records: record}
				if err := nodes[1].Step(m); err != nil {
					b.Fatal(err)
				}
				for deliver() > 0 {
				}
			}
			b.StopTimer()
			if s := nodes[1].Status(); s.HighWatermark != int64(b.N) {
				b.Fatalf("after %d rounds the leader's HW is %d", b.N, s.HighWatermark)
			}
		})
	}
}
