package cluster_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// TestKeylessPartitioners: KIP-480's sticky partitioner (2.4-3.2) moves on
// with every batch, and every record is its own batch here; KIP-794's
// uniform sticky one (3.3+) stays on a partition for batch.size bytes
// (twice that, as batches are never reported full).
func TestKeylessPartitioners(t *testing.T) {
	tests := []struct {
		partitioner string
		minRun      int // records on the first partition before any switch
		maxRun      int
	}{
		{cluster.PartitionerSticky, 1, 1},
		{cluster.PartitionerUniformSticky, 16, 100}, // 16 records of 13 bytes reach 2 x 100
	}
	for _, tt := range tests {
		t.Run(tt.partitioner, func(t *testing.T) {
			w, err := cluster.New(cluster.Config{Seed: 5})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Partitioner: tt.partitioner, BatchSize: 100}))
			for i := range 300 {
				require.NoError(t, w.Produce("p", "", fmt.Sprintf("v%02d", i%100), -1))
			}
			res := w.Producers()[0].Results()
			run := 1
			for run < len(res) && res[run].Partition == res[0].Partition {
				run++
			}
			if run < tt.minRun || run > tt.maxRun {
				t.Errorf("%s kept the first %d records on partition %d, want %d to %d", tt.partitioner, run, res[0].Partition, tt.minRun, tt.maxRun)
			}
			seen := map[int32]int{}
			for _, r := range res {
				seen[r.Partition]++
			}
			if len(seen) != 3 {
				t.Errorf("%s spread 300 records over %v, want all 3 partitions", tt.partitioner, seen)
			}
		})
	}
}
