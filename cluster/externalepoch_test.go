package cluster_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// epochReq is an OffsetForLeaderEpoch request of version v for one
// partition of topic, as a consumer sends it (replica id -1 from v3).
func epochReq(v int16, topic string, partition, current, epoch int32) *kmsg.OffsetForLeaderEpochRequest {
	req := kmsg.NewPtrOffsetForLeaderEpochRequest()
	req.SetVersion(v)
	req.ReplicaID = -1
	rt := kmsg.NewOffsetForLeaderEpochRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewOffsetForLeaderEpochRequestTopicPartition()
	rp.Partition, rp.CurrentLeaderEpoch, rp.LeaderEpoch = partition, current, epoch
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return req
}

// epochEnd is the answer's one partition: error, epoch, end offset.
type epochEnd struct {
	Code      int16
	Epoch     int32
	EndOffset int64
}

func askEpoch(t *testing.T, w *cluster.World, broker int32, req *kmsg.OffsetForLeaderEpochRequest) epochEnd {
	t.Helper()
	r := ask[*kmsg.OffsetForLeaderEpochResponse](t, w, broker, req, 10)
	require.Len(t, r.Topics, 1)
	require.Len(t, r.Topics[0].Partitions, 1)
	p := r.Topics[0].Partitions[0]
	return epochEnd{p.ErrorCode, p.LeaderEpoch, p.EndOffset}
}

// TestExternalOffsetForLeaderEpochDetectsTruncation: the lesson KIP-320
// gives a consumer. It reads six records from the leader under its epoch;
// three of them only the leader had (the followers were down, min ISR
// 1). The leader dies and a follower that lacks them is elected
// uncleanly. The consumer asks the new leader where its last epoch ends
// (OffsetForLeaderEpoch): at offset 3, behind its position 6, so it knows
// the log was truncated under it, which a fetch from 6 could not tell it.
// The other answers are Kafka 3.7's (ReplicaManager.lastOffsetForLeaderEpoch,
// Partition.getLocalLog, LeaderEpochFileCache.endOffsetFor).
func TestExternalOffsetForLeaderEpochDetectsTruncation(t *testing.T) {
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: 3, MinInsyncReplicas: 1, UncleanLeaderElectionEnable: true, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(500))
	require.Equal(t, partResult{0, 0}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(0)), 2000)))
	require.NoError(t, w.RunFor(1000))
	first := w.TopicPartitions("t")[0].LeaderEpoch

	// The followers go; the leader alone takes three more.
	require.NoError(t, w.Kill(2))
	require.NoError(t, w.Kill(3))
	require.NoError(t, w.RunFor(40_000))
	require.Equal(t, partResult{0, 3}, produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(1, clientBatch(3)), 2000)))
	fr := ask[*kmsg.FetchResponse](t, w, 1, fetchReq(0, first), 100)
	require.Equal(t, int64(6), fr.Topics[0].Partitions[0].HighWatermark, "the consumer's position")
	// While broker 1 leads, the epoch the consumer read ends at its log end.
	require.Equal(t, epochEnd{0, first, 6}, askEpoch(t, w, 1, epochReq(4, "t", 0, first, first)))

	// The leader dies; broker 2, without the last three, is elected uncleanly.
	require.NoError(t, w.Kill(1))
	require.NoError(t, w.Start(2))
	require.NoError(t, w.RunFor(20_000))
	p := w.TopicPartitions("t")[0]
	require.Equal(t, int32(2), p.Leader)
	require.Greater(t, p.LeaderEpoch, first)
	now := p.LeaderEpoch

	tests := []struct {
		name   string
		broker int32
		req    *kmsg.OffsetForLeaderEpochRequest
		want   epochEnd
	}{
		{"the consumer's epoch ends where the new leader's log diverged", 2, epochReq(4, "t", 0, now, first), epochEnd{0, first, 3}},
		{"the same without the current epoch (v2's field at -1)", 2, epochReq(4, "t", 0, -1, first), epochEnd{0, first, 3}},
		{"before v2 there is no current epoch to check", 2, epochReq(1, "t", 0, -1, first), epochEnd{0, first, 3}},
		{"the leader's own epoch ends at its log end", 2, epochReq(4, "t", 0, now, now), epochEnd{0, now, 3}},
		{"an epoch newer than any it has is undefined", 2, epochReq(4, "t", 0, now, now+3), epochEnd{0, -1, -1}},
		{"no epoch (-1) is undefined", 2, epochReq(4, "t", 0, now, -1), epochEnd{0, -1, -1}},
		{"a stale current epoch is FENCED_LEADER_EPOCH", 2, epochReq(4, "t", 0, first, first), epochEnd{74, -1, -1}},
		{"a negative one other than -1 is stale too", 2, epochReq(4, "t", 0, -2, first), epochEnd{74, -1, -1}},
		{"a future current epoch is UNKNOWN_LEADER_EPOCH", 2, epochReq(4, "t", 0, now+1, first), epochEnd{75, -1, -1}},
		{"an unknown topic is UNKNOWN_TOPIC_OR_PARTITION", 2, epochReq(4, "nope", 0, now, first), epochEnd{3, -1, -1}},
		{"an unknown partition is UNKNOWN_TOPIC_OR_PARTITION", 2, epochReq(4, "t", 7, now, first), epochEnd{3, -1, -1}},
	}
	for _, tt := range tests {
		if got := askEpoch(t, w, tt.broker, tt.req); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// A fetch from the consumer's position says nothing of the divergence
	// when the new leader has since passed it: the epoch check does.
	// (The idempotent producer's sequence 6 would be OUT_OF_ORDER_SEQUENCE_NUMBER
	// here: the new leader never saw 3-5. A plain producer writes.)
	plain := func() []byte { return plainBatch("after") }
	require.Equal(t, partResult{0, 3}, produced(ask[*kmsg.ProduceResponse](t, w, 2, produceReq(1, plain()), 2000)))
	require.Equal(t, partResult{0, 6}, produced(ask[*kmsg.ProduceResponse](t, w, 2, produceReq(1, plain()), 2000)))
	fr = ask[*kmsg.FetchResponse](t, w, 2, fetchReq(6, now), 100)
	require.Zero(t, fr.Topics[0].Partitions[0].ErrorCode, "the fetch from the old position succeeds")
	require.Equal(t, epochEnd{0, first, 3}, askEpoch(t, w, 2, epochReq(4, "t", 0, now, first)))
	ev := w.Events()
	require.Equal(t, fmt.Sprintf("client 1 (test) asks where epoch %d ends: at offset 3 (epoch %d)", first, first), ev[len(ev)-1].Text, "the page narrates it")

	// A follower is not asked: NOT_LEADER_OR_FOLLOWER (fetchOnlyFromLeader).
	require.NoError(t, w.Start(3))
	require.NoError(t, w.RunFor(20_000))
	require.Equal(t, epochEnd{6, -1, -1}, askEpoch(t, w, 3, epochReq(4, "t", 0, now, first)))
	require.Empty(t, w.InternalErrors())
}
