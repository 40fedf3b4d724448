package cluster_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// committed returns the group's committed offsets by partition.
func committed(w *cluster.World, g string) map[int32]int64 {
	out := map[int32]int64{}
	for _, gi := range w.State().Groups {
		if gi.Name == g {
			for _, o := range gi.Offsets {
				out[o.Partition] = o.Committed
			}
		}
	}
	return out
}

func TestResetOffsetsOnlyWhenTheGroupIsEmpty(t *testing.T) {
	w := busyWorld(t, cluster.TimelineConfig{}, 20000)
	r := cluster.OffsetReset{Group: "g", Topic: "orders", To: cluster.ResetEarliest}
	err := w.ResetOffsets(r)
	if err == nil || !strings.Contains(err.Error(), "the current state is Stable") {
		t.Fatalf("reset-offsets of a Stable group: %v, want Kafka's refusal", err)
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCloseConsumer, Name: "m1"}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCloseConsumer, Name: "m2"}))
	require.NoError(t, w.RunFor(1000))
	before := committed(w, "g")
	if before[0] <= 0 {
		t.Fatalf("the group committed nothing on orders-0 in 20 s: %v", before)
	}
	plan, err := w.PlanReset(r)
	require.NoError(t, err)
	require.NoError(t, w.ResetOffsets(r))
	require.NoError(t, w.RunFor(500))
	want := map[int32]int64{}
	for _, p := range plan {
		want[p.Partition] = p.Offset
	}
	if diff := cmp.Diff(want, committed(w, "g")); diff != "" {
		t.Fatalf("after --to-earliest the committed offsets are not the log start offsets (-want +got):\n%s", diff)
	}
	require.NoError(t, w.ResetOffsets(cluster.OffsetReset{Group: "g", Topic: "orders", To: cluster.ResetToOffset, Offset: 5}))
	require.NoError(t, w.RunFor(500))
	for p, off := range committed(w, "g") {
		if off != 5 {
			t.Fatalf("after --to-offset 5 partition %d is at %d", p, off)
		}
	}
	latest := cluster.OffsetReset{Group: "g", Topic: "orders", To: cluster.ResetLatest}
	plan, err = w.PlanReset(latest)
	require.NoError(t, err)
	for _, p := range w.State().Partitions {
		if p.Topic == "orders" && plan[p.Partition].Offset != p.HighWatermark {
			t.Fatalf("--to-latest plans %d for %s-%d, whose HW is %d", plan[p.Partition].Offset, p.Topic, p.Partition, p.HighWatermark)
		}
	}
	require.NoError(t, w.ResetOffsets(latest))
	require.NoError(t, w.RunFor(500))
	for _, p := range plan {
		if got := committed(w, "g")[p.Partition]; got != p.Offset {
			t.Fatalf("after --to-latest %s-%d is committed at %d, want the HW then, %d", p.Topic, p.Partition, got, p.Offset)
		}
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActRestartConsumer, Name: "m1"}))
	require.NoError(t, w.RunFor(8000))
	for _, c := range w.State().Consumers {
		if c.ID == "m1" && c.Duplicates != 0 {
			t.Fatalf("a member restarted after --to-latest read %d duplicates", c.Duplicates)
		}
	}
}
