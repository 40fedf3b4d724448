package cluster_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// TestQuorumStatus: the metadata log grows by a NoOpRecord every 500 ms;
// a stopped voter stops following, and the lag is its distance in records
// and in time; the active controller's loss, with a majority of voters
// running, starts a new leader epoch. The same in a world whose Kafka
// clock starts at the wall clock (a served world): the log starts with the
// world, not in 1970 (it once counted a NoOpRecord for every 500 ms since
// then: a HW of billions, and the served world's first tick took seconds).
func TestQuorumStatus(t *testing.T) {
	for _, start := range []int64{0, 1_765_000_000_123} {
		t.Run(fmt.Sprint(start), func(t *testing.T) { quorumStatus(t, start) })
	}
}

func quorumStatus(t *testing.T, start int64) {
	w, err := cluster.New(cluster.Config{Seed: 1, Rules: replica.Modern, CombinedControllers: true, ClockStartMs: start})
	require.NoError(t, err)
	require.NoError(t, w.RunFor(2000))
	got, ok := w.QuorumStatus()
	require.True(t, ok)
	want := cluster.QuorumStatus{LeaderID: 1, LeaderEpoch: 1, HighWatermark: 5, Voters: []int32{1, 2, 3}, Observers: []int32{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after 2 s (-want +got):\n%s", diff)
	}
	require.NoError(t, w.Kill(3))
	require.NoError(t, w.RunFor(1000))
	got, _ = w.QuorumStatus()
	want = cluster.QuorumStatus{LeaderID: 1, LeaderEpoch: 1, HighWatermark: 7, MaxFollowerLag: 2, MaxFollowerLagTimeMs: 1000, Voters: []int32{1, 2, 3}, Observers: []int32{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("broker 3 down for 1 s (-want +got):\n%s", diff)
	}
	require.NoError(t, w.Start(3))
	require.NoError(t, w.RunFor(100))
	got, _ = w.QuorumStatus()
	if got.MaxFollowerLag != 0 {
		t.Errorf("broker 3 restarted: lag %d, want 0 (it catches up at once)", got.MaxFollowerLag)
	}
	require.NoError(t, w.Kill(1))
	require.NoError(t, w.RunFor(4000))
	got, _ = w.QuorumStatus()
	if got.LeaderID != 2 || got.LeaderEpoch != 2 {
		t.Errorf("after broker 1's loss: leader %d epoch %d, want broker 2 in epoch 2", got.LeaderID, got.LeaderEpoch)
	}
}
