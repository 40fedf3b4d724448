package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// kcatDay is a wall clock's time, 2026-12-01T00:00:00Z, when a served
// world starts.
const kcatDay = 1_796_083_200_000

// kcatProduce sends what kcat -P sends for one line: a batch without a
// producer id, its one record stamped with the wall clock (stampMs), acks=all, to orders partition p of w's leader.
func kcatProduce(t *testing.T, w *cluster.World, p int32, stampMs int64) kmsg.ProduceResponseTopicPartition {
	t.Helper()
	var b kafkalog.RecordBatch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	b.AppendRecord(0, stampMs, nil, []byte("from kcat"))
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = -1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = "orders"
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition, rp.Records = p, b.AppendTo(nil)
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	leader := ordersPartition(w, p).Leader
	return ask[*kmsg.ProduceResponse](t, w, leader, req, 5000).Topics[0].Partitions[0]
}

// TestRealClientRecordsAge: in a world whose clock starts at the wall
// clock's time (as kafkalive serve's does), a record kcat stamps with the
// wall clock ages beside the simulated producers' records, and retention
// (the default world's retention.ms of 5 minutes) deletes its segment as
// it deletes theirs. In a world whose clock starts in 1970, the same
// record is 56 years ahead: under Kafka 3.7's rules (no bound on a
// timestamp ahead) its segment never expires and retention stops for its
// partition, while the others go on.
func TestRealClientRecordsAge(t *testing.T) {
	for _, tc := range []struct {
		name       string
		clockStart int64
		rules      replica.RuleSet
		deleted    bool
	}{
		{"from the wall clock", kcatDay, replica.Modern, true},
		{"from 1970, 3.7", 0, replica.V3_7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := defaultworld.Config(defaultworld.Seed)
			cfg.ClockStartMs, cfg.Rules = tc.clockStart, tc.rules
			w, err := defaultworld.NewWith(cfg)
			require.NoError(t, err)
			require.NoError(t, w.RunFor(1000))
			got := kcatProduce(t, w, 1, kcatDay+w.NowMs())
			require.Zero(t, got.ErrorCode, "the produce's error")
			require.NoError(t, w.RunFor(8*60_000))
			for p := int32(0); p < 3; p++ {
				st := ordersPartition(w, p)
				deleted := st.LogStartOffset > got.BaseOffset
				if p != 1 {
					require.True(t, deleted, "orders-%d: retention goes on (log start %d)", p, st.LogStartOffset)
					continue
				}
				require.Equal(t, tc.deleted, deleted, "orders-1: the record at offset %d deleted (log start %d)", got.BaseOffset, st.LogStartOffset)
			}
		})
	}
}

// ordersPartition is orders partition p in the world's state.
func ordersPartition(w *cluster.World, p int32) cluster.PartitionInfo {
	for _, st := range w.State().Partitions {
		if st.Topic == "orders" && st.Partition == p {
			return st
		}
	}
	return cluster.PartitionInfo{}
}

// TestRecordsAheadOfTheClock: under Kafka 4's rules a record stamped more
// than log.message.timestamp.after.max.ms (one hour by default, KIP-1030)
// after the leader's clock is refused with INVALID_TIMESTAMP, as kcat's
// record would be in a world whose clock started in 1970; one hour ahead
// is taken. Kafka 3.7 had no bound by default and takes both.
func TestRecordsAheadOfTheClock(t *testing.T) {
	const hour = 60 * 60 * 1000
	for _, tc := range []struct {
		rules replica.RuleSet
		ahead int64
		want  int16
	}{
		{replica.Modern, hour, 0},
		{replica.Modern, hour + 1, 32}, // INVALID_TIMESTAMP
		{replica.Modern, kcatDay, 32},
		{replica.V3_7, hour + 1, 0},
		{replica.V3_7, kcatDay, 0},
	} {
		cfg := defaultworld.Config(defaultworld.Seed)
		cfg.Rules = tc.rules
		w, err := defaultworld.NewWith(cfg)
		require.NoError(t, err)
		require.NoError(t, w.RunFor(1000))
		got := kcatProduce(t, w, 1, w.ClockMs()+tc.ahead)
		require.Equal(t, tc.want, got.ErrorCode, "%s, %d ms ahead", tc.rules, tc.ahead)
		if tc.want != 0 {
			require.Len(t, got.ErrorRecords, 1, "%s, %d ms ahead", tc.rules, tc.ahead)
		}
	}
}
