package cluster_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestIdempotentPartitionsSurviveFaults: an idempotent producer writing
// bursts to three partitions (more than five batches in flight at once,
// with and without linger.ms) through kills, power cuts and cut links
// between it and the brokers never writes a record twice in a leader's
// log, whatever its partitions' epochs and sequences went through, and
// once everything is healed its last record to each partition is
// acknowledged: no partition is left bumping its epoch forever, as it
// would if a new epoch began elsewhere than at sequence 0 or a retry
// overtook the batches before it.
func TestIdempotentPartitionsSurviveFaults(t *testing.T) {
	for seed := uint64(1); seed <= 16; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		w, err := cluster.New(cluster.Config{Seed: seed, Rules: replica.Modern})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}}}))
		linger := cluster.NoLinger
		if seed%2 == 0 {
			linger = 0 // Kafka 4's default, 5 ms
		}
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", LingerMs: linger, RequestTimeoutMs: 3000}))
		const producer = 101
		var script []string
		do := func(line string, err error) {
			script = append(script, line)
			require.NoError(t, err, "%s", line)
		}
		up := map[int32]bool{1: true, 2: true, 3: true}
		for i := range 30 {
			b := int32(rng.IntN(3) + 1)
			switch k := rng.IntN(8); {
			case k == 0 && up[b]:
				do(fmt.Sprintf("kill %d", b), w.Kill(b))
				up[b] = false
			case k == 1 && up[b]:
				do(fmt.Sprintf("power-cut %d", b), w.PowerCut(b, false))
				up[b] = false
			case k < 3 && !up[b]:
				do(fmt.Sprintf("start %d", b), w.Start(b))
				up[b] = true
			case k == 3:
				do(fmt.Sprintf("partition (%d) (%d)", producer, b), w.Partition([]int32{producer}, []int32{b}))
			case k == 4:
				do("heal", w.Heal())
			default:
				n := 1 + rng.IntN(12)
				for j := range n {
					partition := int32(rng.IntN(4)) - 1 // -1: the partitioner's choice
					do(fmt.Sprintf("produce v%d-%d %d", i, j, partition), w.Produce("p", "", fmt.Sprintf("v%d-%d", i, j), partition))
				}
			}
			ms := int64(rng.IntN(8000))
			do(fmt.Sprintf("run %d", ms), w.RunFor(ms))
		}
		do("heal", w.Heal())
		for b := int32(1); b <= 3; b++ {
			if !up[b] {
				do(fmt.Sprintf("start %d", b), w.Start(b))
			}
		}
		do("run 150000", w.RunFor(150000))
		for p := int32(0); p < 3; p++ {
			do(fmt.Sprintf("produce last-%d %d", p, p), w.Produce("p", "", fmt.Sprintf("last-%d", p), p))
		}
		do("run 10000", w.RunFor(10000))
		replay := fmt.Sprintf("seed %d\nscript: %v\nreplay: go test ./cluster -run TestIdempotentPartitionsSurviveFaults", seed, script)
		for _, part := range w.State().Partitions {
			if part.Topic != "t" {
				continue
			}
			for _, l := range part.Logs {
				if l.Role != "leader" {
					continue
				}
				seen := map[string]bool{}
				for _, r := range l.Records {
					if seen[r.Value] {
						t.Fatalf("t-%d: %s is twice in the leader's log\n%s", part.Partition, r.Value, replay)
					}
					seen[r.Value] = true
				}
			}
		}
		for _, r := range w.Producers()[0].Results() {
			if len(r.Value) > 5 && r.Value[:5] == "last-" && !r.Acked {
				t.Fatalf("%s, sent with every broker up and every link healed, ended %+v\n%s", r.Value, r, replay)
			}
		}
		require.Empty(t, w.InternalErrors(), replay)
	}
}
