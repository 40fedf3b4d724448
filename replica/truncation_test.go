package replica_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

func TestTruncationPoint(t *testing.T) {
	type point struct {
		Offset int64
		Done   bool
	}
	ee := func(epoch int32, end int64) replica.EpochEndOffset {
		return replica.EpochEndOffset{Epoch: epoch, EndOffset: end}
	}
	undefined := ee(replica.NoEpoch, replica.UndefinedOffset)
	// kip279_two_rounds.txt's X after step 5: [a·e0, b·e0, f·e2], HW 3.
	x := []replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 2}}
	// kip101_part4.txt's A after the power cut: [m1·e0, m2·e0], HW 2.
	a := []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}
	tests := []struct {
		name       string
		rules      replica.RuleSet
		own        []replica.EpochEntry
		leo, fetch int64
		answer     replica.EpochEndOffset
		want       point
	}{
		{"0.10 cuts at its HW whatever the leader says", replica.V0_10, nil, 2, 1, ee(0, 2), point{1, true}},
		{"0.11: kip101_part2.txt step 4, the leader's end of epoch 0 is 2", replica.V0_11, a, 2, 1, ee(replica.NoEpoch, 2), point{2, true}},
		{"0.11: kip101_part4.txt step 7, epoch 0 ends at 1 on the leader", replica.V0_11, a, 2, 2, ee(replica.NoEpoch, 1), point{1, true}},
		{"0.11: no answer falls back to the HW", replica.V0_11, a, 2, 1, undefined, point{1, true}},
		{"0.11: kip279_two_rounds.txt step 6a, the start of epoch 3 is past the log end", replica.V0_11, x, 3, 3, ee(replica.NoEpoch, 4), point{3, true}},
		{"2.0: kip279_two_rounds.txt step 6b, round one: no epoch 1, cut to the end of epoch 0", replica.V2_0, x, 3, 3, ee(1, 4), point{2, false}},
		{"2.0: kip279_two_rounds.txt step 6c, round two: epoch 0 ends at 1", replica.V2_0, a, 2, 2, ee(0, 1), point{1, true}},
		{"2.0: no answer cuts at the initial fetch offset, the HW (ReplicaManager.makeFollowers)", replica.V2_0, x, 3, 1, undefined, point{1, true}},
		{"2.0: no answer in a later round cuts where the last round cut (still the fetch offset)", replica.V2_0, a, 2, 2, undefined, point{2, true}},
		{"2.1: no answer cuts at the HW too (2.1 to 2.7)", replica.V2_1, x, 3, 1, undefined, point{1, true}},
		{"modern: no answer keeps the log (2.8's initialFetchOffset is the LEO)", replica.Modern, x, 3, 1, undefined, point{3, true}},
		{"0.11: no answer cuts at the HW", replica.V0_11, x, 3, 1, undefined, point{1, true}},
		{"2.0: an answer without an epoch cuts at its end", replica.V2_0, x, 3, 1, ee(replica.NoEpoch, 1), point{1, true}},
		{"modern: acks1_loses_acked_writes.txt step 4, DivergingEpoch (0, 1)", replica.Modern, a, 2, 1, ee(0, 1), point{1, true}},
		{"modern: the leader's end beyond ours keeps ours", replica.Modern, a, 2, 1, ee(0, 5), point{2, true}},
		{"modern: an epoch older than all ours (2.1+ answers it)", replica.Modern, []replica.EpochEntry{{Epoch: 3, StartOffset: 4}}, 6, 4, ee(1, 4), point{4, true}},
		{"2.0: the same before 2.1 has no own answer, cuts at the leader's end", replica.V2_0, []replica.EpochEntry{{Epoch: 3, StartOffset: 4}}, 6, 4, ee(1, 4), point{4, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offset, done := replica.TruncationPoint(tt.rules, tt.own, tt.leo, tt.fetch, tt.answer)
			if diff := cmp.Diff(tt.want, point{offset, done}); diff != "" {
				t.Errorf("TruncationPoint(%s, %v, leo %d, fetch offset %d, %+v) (-want +got):\n%s", tt.rules, tt.own, tt.leo, tt.fetch, tt.answer, diff)
			}
		})
	}
}
