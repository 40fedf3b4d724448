package web

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
)

// A group with more offsets than MaxOffsetsShown lists those that lag the
// most, in the cluster's order, and counts and sums the others; a member
// with many partitions (read, waited for, given up) lists
// MaxMemberPartitionsShown of each; every offset carries its partition's
// log start; a consumer-protocol group keeps its epochs.
func TestGroupViewCutsLongLists(t *testing.T) {
	g := cluster.GroupInfo{Name: "wide", State: "Stable"}
	var wantShown []int32
	var hiddenLag int64
	for p := int32(0); p < 100; p++ {
		lag := int64(p % 7)
		if p == 5 {
			lag = -1 // unknown
		}
		g.Offsets = append(g.Offsets, cluster.OffsetInfo{Topic: "big", Partition: p, Committed: 10, Lag: lag})
	}
	// the twenty that lag the most: lag 6 at 6, 13, ..., 97 (fourteen),
	// then lag 5 at 12, 19, ..., 47 (5 itself lags -1: unknown)
	for p := int32(6); p < 100; p += 7 {
		wantShown = append(wantShown, p)
	}
	for p := int32(12); p <= 47; p += 7 {
		wantShown = append(wantShown, p)
	}
	slices.Sort(wantShown)
	var parts []cluster.PartitionRef
	for p := int32(0); p < 45; p++ {
		parts = append(parts, cluster.PartitionRef{Topic: "big", Partition: p})
	}
	g.Members = []cluster.MemberInfo{{ID: "m", ClientID: "wide-1", Partitions: parts, MemberEpoch: 4, MemberState: "UNRELEASED_PARTITIONS",
		Pending: parts[:30], Revoking: parts[40:]}}
	g.GroupProtocol, g.AssignmentEpoch = "consumer", 5
	gv := groupView(g, func(topic string, p int32) (int64, bool) { return int64(p), p != 13 })

	var gotShown []int32
	for _, o := range gv.Offsets {
		gotShown = append(gotShown, o.Partition)
		want := int64(o.Partition)
		if o.Partition == 13 {
			want = -1
		}
		if o.LogStart != want {
			t.Errorf("offset of big-%d: log start %d, want %d", o.Partition, o.LogStart, want)
		}
	}
	if d := cmp.Diff(wantShown, gotShown); d != "" {
		t.Errorf("the offsets shown (-want +got):\n%s", d)
	}
	for _, o := range g.Offsets {
		if !slices.Contains(gotShown, o.Partition) {
			hiddenLag += max(o.Lag, 0)
		}
	}
	if gv.OffsetsHidden != 100-MaxOffsetsShown || gv.HiddenLag != hiddenLag {
		t.Errorf("%d offsets hidden with lag %d, want %d with lag %d", gv.OffsetsHidden, gv.HiddenLag, 100-MaxOffsetsShown, hiddenLag)
	}
	m := gv.Members[0]
	if len(m.Partitions) != MaxMemberPartitionsShown || m.PartitionsHidden != 45-MaxMemberPartitionsShown || fmt.Sprint(m.Partitions[0]) != fmt.Sprint(parts[0]) {
		t.Errorf("the member lists %d partitions and hides %d", len(m.Partitions), m.PartitionsHidden)
	}
	if len(m.Pending) != MaxMemberPartitionsShown || m.PendingHidden != 30-MaxMemberPartitionsShown || len(m.Revoking) != 5 || m.RevokingHidden != 0 {
		t.Errorf("the member lists %d pending partitions (%d hidden) and %d revoking (%d hidden)", len(m.Pending), m.PendingHidden, len(m.Revoking), m.RevokingHidden)
	}
	if gv.GroupProtocol != "consumer" || gv.AssignmentEpoch != 5 || m.MemberEpoch != 4 || m.MemberState != "UNRELEASED_PARTITIONS" {
		t.Errorf("a consumer-protocol group's epochs: %+v, member %+v", gv, m)
	}
}
