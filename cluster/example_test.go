package cluster_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// KIP-101's first problem under 0.10 rules: a follower restarts, truncates
// to its lagging high watermark, and is elected when the leader dies.
func Example() {
	w, _ := cluster.New(cluster.Config{Seed: 1, Brokers: 2, Rules: replica.V0_10})
	_ = w.CreateTopic(cluster.TopicSpec{Name: "kip101", Assignment: [][]int32{{2, 1}}})
	_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "kip101", Acks: "all"})
	_ = w.Deliver(0)
	for _, v := range []string{"m1", "m2"} {
		_ = w.Produce("p", "", v, -1)
		_ = w.Deliver(0)
	}
	_ = w.Kill(1)  // A crashes and restarts at once...
	_ = w.Start(1) // ...and truncates to its HW 1 as it becomes a follower
	_ = w.Deliver(2)
	_ = w.Kill(2) // B dies before A fetches m2 again
	_ = w.RunFor(9100)
	_ = w.Produce("p", "", "m3", -1)
	_ = w.RunFor(100)
	p := w.State().Partitions[0]
	fmt.Printf("leader %d, epoch %d, isr %v\n", p.Leader, p.LeaderEpoch, p.ISR)
	for _, l := range p.Logs {
		fmt.Println(l.Text())
	}
	for _, r := range w.State().Producers[0].Results {
		fmt.Print(r.Text(), " ")
	}
	fmt.Println()
	// Output:
	// leader 1, epoch 1, isr [1]
	// b2 down [0 m1*, 1 m2*!] 2/2 EC []
	// b1 leader [0 m1, 1 m3*] 2/2 EC []
	// m1=ACK(p0@0) m2=ACK(p0@1),LOST m3=ACK(p0@1)
}
