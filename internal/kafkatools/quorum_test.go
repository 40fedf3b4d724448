package kafkatools

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestQuorumStatusLayouts: describe --status prints the voters as Kafka
// 3.7 does under its rules and as 3.9+ does (KIP-853) under Kafka 4's.
func TestQuorumStatusLayouts(t *testing.T) {
	st := cluster.QuorumStatus{LeaderID: 2, LeaderEpoch: 3, HighWatermark: 40, MaxFollowerLag: 1, MaxFollowerLagTimeMs: 500, Voters: []int32{1, 2, 3}, Observers: []int32{}}
	for _, tc := range []struct {
		kafka37 bool
		want    string
	}{
		{true, "ClusterId:              c1\nLeaderId:               2\nLeaderEpoch:            3\nHighWatermark:          40\nMaxFollowerLag:         1\nMaxFollowerLagTimeMs:   500\nCurrentVoters:          [1,2,3]\nCurrentObservers:       []\n"},
		{false, "ClusterId:              c1\nLeaderId:               2\nLeaderEpoch:            3\nHighWatermark:          40\nMaxFollowerLag:         1\nMaxFollowerLagTimeMs:   500\nCurrentVoters:          [{\"id\": 1}, {\"id\": 2}, {\"id\": 3}]\nCurrentObservers:       []\n"},
	} {
		if diff := cmp.Diff(tc.want, quorumStatusText("c1", st, tc.kafka37)); diff != "" {
			t.Errorf("kafka37 %v (-want +got):\n%s", tc.kafka37, diff)
		}
	}
}
