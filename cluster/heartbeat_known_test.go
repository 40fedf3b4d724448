package cluster

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
)

// A broker's heartbeat reports what its replicas know (their epochs) from
// the last one it sent and the replicas changed since (broker.Known):
// after any schedule of produces, faults, restarts, network cuts, and
// topics created, grown and deleted, what it would send is what every
// replica it runs knows, read anew.
func TestHeartbeatKnownIsEveryReplicasEpochs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V2_1, replica.V3_7, replica.Modern}).Draw(t, "rules")
		w, err := New(Config{Seed: seed, Brokers: 3, Rules: rules, MinInsyncReplicas: 2, CombinedControllers: seed%2 == 0,
			OffsetsTopicNumPartitions: 3})
		if err != nil {
			t.Fatal(err)
		}
		_ = w.CreateTopic(TopicSpec{Name: "t", Partitions: 3, ReplicationFactor: 3})
		_ = w.AddProducer(ProducerConfig{Name: "p", Topic: "t", Keys: []string{"a", "b", "c"}, RecordsPerSec: 20})
		for i, a := range drawSchedule(t) {
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("topics %d", i)) {
			case 1:
				_ = w.Do(Action{Kind: ActCreateTopic, Topic: TopicSpec{Name: "u", Partitions: rapid.IntRange(1, 4).Draw(t, "partitions"),
					ReplicationFactor: rapid.IntRange(1, 3).Draw(t, "rf")}})
			case 2:
				_ = w.Do(Action{Kind: ActDeleteTopic, Name: "u"})
			case 3:
				_ = w.Do(Action{Kind: ActAddPartitions, Name: "u", N: rapid.IntRange(2, 6).Draw(t, "grow to")})
			}
			_ = w.Do(a)
			for _, b := range w.brokers {
				got := b.Known()
				if got.Len() != len(b.Partitions()) {
					t.Fatalf("seed %d after %v: broker %d's heartbeat lists %d partitions, it runs %d", seed, a, b.ID(), got.Len(), len(b.Partitions()))
				}
				for _, k := range b.Partitions() {
					leaderEpoch, partitionEpoch := b.Peek(k).Node.Epochs()
					if e, ok := got.Epochs(k); !ok || e != [2]int32{leaderEpoch, partitionEpoch} {
						t.Fatalf("seed %d after %v: broker %d's heartbeat says %s is at epochs %v (%v), its replica at [%d %d]", seed, a, b.ID(), k, e, ok, leaderEpoch, partitionEpoch)
					}
				}
			}
		}
	})
}
