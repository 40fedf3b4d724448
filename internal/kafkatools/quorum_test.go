package kafkatools

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestQuorumStatusLayouts: describe --status prints the voters as Kafka
// 3.7 does under its rules and as 3.9+ does (KIP-853's Node.toString, a
// null directory id for the zero Uuid) under Kafka 4's.
func TestQuorumStatusLayouts(t *testing.T) {
	st := cluster.QuorumStatus{LeaderID: 2, LeaderEpoch: 3, HighWatermark: 40, MaxFollowerLag: 1, MaxFollowerLagTimeMs: 500, Voters: []int32{1, 2, 3}, Observers: []int32{}}
	for _, tc := range []struct {
		kafka37 bool
		want    string
	}{
		{true, "ClusterId:              c1\nLeaderId:               2\nLeaderEpoch:            3\nHighWatermark:          40\nMaxFollowerLag:         1\nMaxFollowerLagTimeMs:   500\nCurrentVoters:          [1,2,3]\nCurrentObservers:       []\n"},
		{false, "ClusterId:              c1\nLeaderId:               2\nLeaderEpoch:            3\nHighWatermark:          40\nMaxFollowerLag:         1\nMaxFollowerLagTimeMs:   500\n" +
			`CurrentVoters:          [{"id": 1, "directoryId": null}, {"id": 2, "directoryId": null}, {"id": 3, "directoryId": null}]` + "\nCurrentObservers:       []\n"},
	} {
		if diff := cmp.Diff(tc.want, QuorumStatusText("c1", st, tc.kafka37)); diff != "" {
			t.Errorf("kafka37 %v (-want +got):\n%s", tc.kafka37, diff)
		}
	}
}

// TestQuorumReplicationLayouts: describe --replication prints the leader,
// the other voters and the observers as handleDescribeReplication does,
// with Kafka 3.9+'s DirectoryId column under Kafka 4's rules and without
// it under 3.7's, each cell padded to its column and followed by a tab;
// --human-readable prints the times as "N ms ago".
func TestQuorumReplicationLayouts(t *testing.T) {
	d := cluster.QuorumDescription{LeaderID: 2, LeaderEpoch: 3, HighWatermark: 40,
		Voters: []cluster.QuorumReplica{
			{ID: 1, LogEndOffset: 38, LastFetchMs: 9500, LastCaughtUpMs: 9000},
			{ID: 2, LogEndOffset: 40, LastFetchMs: 10000, LastCaughtUpMs: 10000},
			{ID: 3, LogEndOffset: 40, LastFetchMs: 9990, LastCaughtUpMs: 9990},
		},
		Observers: []cluster.QuorumReplica{{ID: 4, LogEndOffset: -1, LastFetchMs: -1, LastCaughtUpMs: -1}}}
	for _, tc := range []struct {
		name           string
		kafka37, human bool
		want           string
	}{
		{"Kafka 4", false, false, "" +
			"NodeId\tDirectoryId           \tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t\n" +
			"2     \tAAAAAAAAAAAAAAAAAAAAAA\t40          \t0  \t10000             \t10000                \tLeader  \t\n" +
			"1     \tAAAAAAAAAAAAAAAAAAAAAA\t38          \t2  \t9500              \t9000                 \tFollower\t\n" +
			"3     \tAAAAAAAAAAAAAAAAAAAAAA\t40          \t0  \t9990              \t9990                 \tFollower\t\n" +
			"4     \tAAAAAAAAAAAAAAAAAAAAAA\t-1          \t41 \t-1                \t-1                   \tObserver\t\n"},
		{"Kafka 3.7", true, false, "" +
			"NodeId\tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t\n" +
			"2     \t40          \t0  \t10000             \t10000                \tLeader  \t\n" +
			"1     \t38          \t2  \t9500              \t9000                 \tFollower\t\n" +
			"3     \t40          \t0  \t9990              \t9990                 \tFollower\t\n" +
			"4     \t-1          \t41 \t-1                \t-1                   \tObserver\t\n"},
		{"human-readable", true, true, "" +
			"NodeId\tLogEndOffset\tLag\tLastFetchTimestamp\tLastCaughtUpTimestamp\tStatus  \t\n" +
			"2     \t40          \t0  \t0 ms ago          \t0 ms ago             \tLeader  \t\n" +
			"1     \t38          \t2  \t500 ms ago        \t1000 ms ago          \tFollower\t\n" +
			"3     \t40          \t0  \t10 ms ago         \t10 ms ago            \tFollower\t\n" +
			"4     \t-1          \t41 \t-1                \t-1                   \tObserver\t\n"},
	} {
		got, err := QuorumReplication(d, tc.kafka37, tc.human, 10000)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	d.Voters[0].LastFetchMs = 20000 // after now: Kafka's relativeTimeMs refuses it
	if _, err := QuorumReplication(d, false, true, 10000); err == nil ||
		err.Error() != "Error while computing relative time, possible drift in system clock.\nCurrent timestamp is 10000, last fetch timestamp is 20000" {
		t.Errorf("a fetch time after now: %v", err)
	}
}
