package replica_test

import (
	"fmt"
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

// BenchmarkNodeClone clones a leader (over its MemLog's clone) whose two
// idempotent producers took turns for 10 or 10,000 batches: the clone
// alone, then the clone and one more produce on the original (a live world
// after its snapshot) or on the clone (a world restored from its snapshot).
// A producer's state is its epoch and last five batches, copied whole, so
// the node costs no more with more history; a MemLog's
// records are shared too, and the original goes on appending in place,
// while the clone's first append copies them (once).
func BenchmarkNodeClone(b *testing.B) {
	for _, batches := range []int{10, 10_000} {
		log := replica.NewMemLog()
		n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
		if err != nil {
			b.Fatal(err)
		}
		if err := n.BecomeLeader(replica.LeaderAndISR{Leader: 1, ISR: []int32{1}, Replicas: []int32{1}}); err != nil {
			b.Fatal(err)
		}
		seq := int32(0)
		produce := func(n *replica.Node, id int64, seq int32) {
			m := replica.Message{Type: replica.MsgProduce, From: 100, To: 1, Acks: 1,
				Records: []replica.Record{{Value: []byte("v"), Producer: &replica.ProducerSequence{ID: id, Sequence: seq}}}}
			if err := n.Step(m); err != nil {
				b.Fatal(err)
			}
			n.Advance(n.Ready())
		}
		for ; seq < int32(batches/2); seq++ {
			produce(n, 1, seq)
			produce(n, 2, seq)
		}
		b.Run(fmt.Sprintf("batches=%d/clone", batches), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n.Clone(log.Clone())
			}
		})
		b.Run(fmt.Sprintf("batches=%d/clone+produce-original", batches), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n.Clone(log.Clone())
				produce(n, 1, seq)
				seq++
			}
		})
		b.Run(fmt.Sprintf("batches=%d/clone+produce-clone", batches), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				produce(n.Clone(log.Clone()), 1, seq)
			}
		})
	}
}
