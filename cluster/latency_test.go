package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// TestNetworkLatency: without latency an acks=1 produce sent between two
// ticks is answered in the next tick; with Config.NetworkLatencyMs 5 the
// request arrives in that tick and the answer one tick later.
func TestNetworkLatency(t *testing.T) {
	for _, tt := range []struct {
		latencyMs int64
		want      []bool // acknowledged after 0, 10, 20 ms
	}{
		{0, []bool{false, true, true}},
		{5, []bool{false, false, true}},
	} {
		w, err := cluster.New(cluster.Config{Seed: 1, Rules: replica.Modern, NetworkLatencyMs: tt.latencyMs})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", LingerMs: cluster.NoLinger}))
		require.NoError(t, w.RunFor(100))
		require.NoError(t, w.Produce("p", "", "r0", 0))
		var got []bool
		for range 3 {
			got = append(got, w.Producers()[0].Results()[0].Acked)
			require.NoError(t, w.RunFor(10))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("latency %d ms: acknowledged after 0, 10, 20 ms (-want +got):\n%s", tt.latencyMs, diff)
		}
	}
	_, err := cluster.New(cluster.Config{NetworkLatencyMs: -1})
	require.ErrorIs(t, err, cluster.ErrInvalidConfig)
}
