package cluster_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// TestKeylessPartitioners: under modern rules a producer that names no
// partitioner uses KIP-794's built-in one (3.3+): it stays on a partition
// until batch.size bytes went to it. Each record here is a batch of 71
// bytes (61 of header, 10 of record), so with batch.size 1000 the switch
// comes after 15 records (1065 bytes), and a new draw may land on the same
// partition again. Under older rules KIP-480's sticky partitioner (2.4-3.2)
// moves on with every batch, and every record is its own batch.
func TestKeylessPartitioners(t *testing.T) {
	tests := []struct {
		rules       replica.RuleSet
		partitioner string
		perRun      int // records that must share a partition, in blocks from the first
		neverTwice  bool
	}{
		{replica.Modern, cluster.PartitionerUniformSticky, 15, false},
		{replica.V2_1, cluster.PartitionerSticky, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.partitioner, func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				w, err := cluster.New(cluster.Config{Seed: seed, Rules: tt.rules})
				require.NoError(t, err)
				require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3}))
				require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", BatchSize: 1000}))
				require.Equal(t, tt.partitioner, w.Producers()[0].Config().Partitioner)
				for i := range 300 {
					require.NoError(t, w.Produce("p", "", fmt.Sprintf("v%02d", i%100), -1))
				}
				res := w.Producers()[0].Results()
				seen := map[int32]int{}
				for i, r := range res {
					seen[r.Partition]++
					if i%tt.perRun != 0 && r.Partition != res[i-1].Partition {
						t.Fatalf("seed %d: record %d went to partition %d, record %d to %d: %s must keep blocks of %d records (batch.size 1000) on one partition",
							seed, i-1, res[i-1].Partition, i, r.Partition, tt.partitioner, tt.perRun)
					}
					if tt.neverTwice && i > 0 && r.Partition == res[i-1].Partition {
						t.Fatalf("seed %d: records %d and %d both went to partition %d: KIP-480 moves on with every batch", seed, i-1, i, r.Partition)
					}
				}
				if len(seen) != 3 {
					t.Errorf("seed %d: %s spread 300 records over %v, want all 3 partitions", seed, tt.partitioner, seen)
				}
			}
		})
	}
}
