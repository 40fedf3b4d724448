package replica_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
)

// No input panics: any sequence of well-typed but arbitrary messages,
// LeaderAndIsr decisions and ticks leaves a replica with
// log start ≤ HW ≤ LEO, whatever the rule set.
func TestArbitraryInputNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rules := replica.RuleSet(rapid.IntRange(0, int(replica.Modern)).Draw(t, "rules"))
		log := replica.NewMemLog()
		n, err := replica.NewNode(replica.Config{ID: 1, Rules: rules, MinInsyncReplicas: rapid.IntRange(1, 3).Draw(t, "min.insync.replicas")}, log)
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		small := rapid.Int64Range(-3, 12)
		epoch := rapid.Int32Range(-2, 6)
		ids := rapid.SliceOfN(rapid.Int32Range(0, 4), 0, 4)
		now := int64(0)
		for range rapid.IntRange(1, 60).Draw(t, "steps") {
			switch rapid.IntRange(0, 3).Draw(t, "input") {
			case 0:
				s := replica.LeaderAndISR{Leader: rapid.Int32Range(-1, 3).Draw(t, "leader"), LeaderEpoch: epoch.Draw(t, "leader epoch"),
					PartitionEpoch: epoch.Draw(t, "partition epoch"), ISR: ids.Draw(t, "isr"), Replicas: []int32{1, 2, 3}}
				if s.Leader == 1 {
					_ = n.BecomeLeader(s)
				} else {
					_ = n.BecomeFollower(s)
				}
			case 1:
				now += small.Draw(t, "ms") * 1000
				n.Tick(now)
			default:
				m := replica.Message{
					Type: replica.MessageType(rapid.IntRange(0, 6).Draw(t, "type")), From: rapid.Int32Range(0, 4).Draw(t, "from"), To: 1,
					CorrelationID: small.Draw(t, "correlation id"), Error: replica.ErrorCode(rapid.SampledFrom([]int16{0, 0, 1, 6, 74, 75}).Draw(t, "error")),
					CurrentLeaderEpoch: epoch.Draw(t, "current epoch"), FetchOffset: small.Draw(t, "fetch offset"),
					LastFetchedEpoch: epoch.Draw(t, "last fetched epoch"), MaxWaitMs: small.Draw(t, "max wait"),
					HighWatermark: small.Draw(t, "hw"), LogStartOffset: small.Draw(t, "log start"), LogEndOffset: small.Draw(t, "leo"),
					Epoch: epoch.Draw(t, "epoch"), EndOffset: small.Draw(t, "end offset"), Acks: int16(rapid.IntRange(-2, 2).Draw(t, "acks")),
					ISR: ids.Draw(t, "isr"), LeaderEpoch: epoch.Draw(t, "leader epoch"), PartitionEpoch: epoch.Draw(t, "partition epoch"),
				}
				if rapid.Bool().Draw(t, "diverging") {
					m.DivergingEpoch = &replica.EpochEndOffset{Epoch: epoch.Draw(t, "diverging epoch"), EndOffset: small.Draw(t, "diverging end")}
				}
				for i := range rapid.IntRange(0, 3).Draw(t, "records") {
					m.Records = append(m.Records, replica.Record{Value: []byte("r")})
					m.Entries = append(m.Entries, replica.Entry{Offset: m.FetchOffset + int64(i), LeaderEpoch: epoch.Draw(t, "entry epoch")})
				}
				_ = n.Step(m)
			}
			n.Advance(n.Ready())
			if s := n.Status(); s.HighWatermark > s.LogEndOffset || s.HighWatermark < s.LogStartOffset {
				t.Fatalf("after arbitrary input under %s rules the HW %d lies outside [log start %d, LEO %d]", rules, s.HighWatermark, s.LogStartOffset, s.LogEndOffset)
			}
		}
	})
}
