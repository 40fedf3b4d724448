package observe

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestProducerTurnsCoverEveryPartition: whatever partitions a broker
// leads, a poll asks it about at most MaxProducerPartitions of them, none
// twice, only its own, and any ceil(L / MaxProducerPartitions) polls in a
// row ask about every one of the L it leads.
func TestProducerTurnsCoverEveryPartition(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 1000).Draw(rt, "partitions")
		var parts []*Partition
		led := 0
		for i := range n {
			leader := int32(rapid.IntRange(1, 3).Draw(rt, "leader"))
			if leader == 1 {
				led++
			}
			parts = append(parts, &Partition{Topic: fmt.Sprintf("t%d", i/100), Partition: int32(i % 100), Leader: leader})
		}
		p := &poller{}
		for range rapid.IntRange(0, 5).Draw(rt, "polls before") {
			p.producerTurn(1, parts)
		}
		seen := map[*Partition]bool{}
		polls := max(1, (led+MaxProducerPartitions-1)/MaxProducerPartitions)
		for range polls {
			turn := p.producerTurn(1, parts)
			if len(turn) > MaxProducerPartitions {
				rt.Fatalf("a poll asks about %d partitions", len(turn))
			}
			inTurn := map[*Partition]bool{}
			for _, pt := range turn {
				if pt.Leader != 1 || inTurn[pt] {
					rt.Fatalf("%s-%d asked of broker 1 (its leader %d), twice %v", pt.Topic, pt.Partition, pt.Leader, inTurn[pt])
				}
				inTurn[pt], seen[pt] = true, true
			}
		}
		if len(seen) != led {
			rt.Fatalf("%d polls asked about %d of the %d partitions broker 1 leads", polls, len(seen), led)
		}
	})
}
