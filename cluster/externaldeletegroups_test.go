package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func deleteGroupsReq(groups ...string) *kmsg.DeleteGroupsRequest {
	req := kmsg.NewPtrDeleteGroupsRequest()
	req.SetVersion(2)
	req.Groups = groups
	return req
}

func deleteCodes(r *kmsg.DeleteGroupsResponse) map[string]int16 {
	out := map[string]int16{}
	for _, g := range r.Groups {
		out[g.Group] = g.ErrorCode
	}
	return out
}

// TestExternalDeleteGroups: DeleteGroups as Kafka 3.7's
// GroupCoordinator.handleDeleteGroups answers it. A group with a member is
// NON_EMPTY_GROUP; once the member leaves, it is deleted and its committed
// offsets are gone at once (OffsetFetch finds none, ListGroups lists it no
// more); a
// group that only stores offsets is deleted too; a second delete, and a
// group never seen, are GROUP_ID_NOT_FOUND; a broker that does not
// coordinate the group says NOT_COORDINATOR; a name given twice is answered
// once.
func TestExternalDeleteGroups(t *testing.T) {
	w := xgroupWorld(t, 5)
	c := xclient{1, "admin", "10.0.0.1:40000"}
	coord, _ := findCoordinator(t, w, c, "live", 10_000)
	ids, gen := stableGroup(t, w, coord, "live", c)
	require.Equal(t, map[int32]int16{0: 0}, commitCodes(xask[*kmsg.OffsetCommitResponse](t, w, c, coord, commitReq("live", ids[0], gen, "g", map[int32]int64{0: 7}), 5000)))

	require.Equal(t, map[string]int16{"live": 68}, deleteCodes(xask[*kmsg.DeleteGroupsResponse](t, w, c, coord, deleteGroupsReq("live"), 10)), "NON_EMPTY_GROUP")

	leave := kmsg.NewPtrLeaveGroupRequest()
	leave.SetVersion(5)
	leave.Group = "live"
	m := kmsg.NewLeaveGroupRequestMember()
	m.MemberID = ids[0]
	leave.Members = append(leave.Members, m)
	require.Zero(t, xask[*kmsg.LeaveGroupResponse](t, w, c, coord, leave, 5000).ErrorCode)
	require.Equal(t, map[string]map[int32]int64{"live": {0: 7}}, fetchOffsets(t, w, c, coord, "live"))

	twice := xask[*kmsg.DeleteGroupsResponse](t, w, c, coord, deleteGroupsReq("live", "live"), 10)
	require.Len(t, twice.Groups, 1, "a group named twice is answered once")
	require.Equal(t, map[string]int16{"live": 0}, deleteCodes(twice))
	// at once, before the tombstones are replicated, as Kafka's cache
	// drops them
	require.Equal(t, map[string]map[int32]int64{"live": {}}, fetchOffsets(t, w, c, coord, "live"), "the offsets are gone")
	require.NoError(t, w.RunFor(1000))
	require.Equal(t, map[string]map[int32]int64{"live": {}}, fetchOffsets(t, w, c, coord, "live"), "the offsets are tombstoned")
	require.Equal(t, map[string]int16{"live": 69}, deleteCodes(xask[*kmsg.DeleteGroupsResponse](t, w, c, coord, deleteGroupsReq("live"), 10)), "GROUP_ID_NOT_FOUND")

	// A group that only stores offsets (a simple consumer's commits).
	scoord, _ := findCoordinator(t, w, c, "simple", 10_000)
	require.Equal(t, map[int32]int16{1: 0}, commitCodes(xask[*kmsg.OffsetCommitResponse](t, w, c, scoord, commitReq("simple", "", -1, "g", map[int32]int64{1: 3}), 5000)))
	other := scoord%3 + 1
	require.Equal(t, map[string]int16{"simple": 16}, deleteCodes(xask[*kmsg.DeleteGroupsResponse](t, w, c, other, deleteGroupsReq("simple"), 10)), "NOT_COORDINATOR")
	// With a follower of its offsets partition dead and still in the ISR,
	// the tombstones stay above the high watermark for a while; the
	// offsets are gone all the same.
	require.NoError(t, w.Kill(other))
	require.Equal(t, map[string]int16{"simple": 0}, deleteCodes(xask[*kmsg.DeleteGroupsResponse](t, w, c, scoord, deleteGroupsReq("simple"), 10)))
	require.Equal(t, map[string]map[int32]int64{"simple": {}}, fetchOffsets(t, w, c, scoord, "simple"))
	require.NoError(t, w.RunFor(40_000))
	require.Equal(t, map[string]map[int32]int64{"simple": {}}, fetchOffsets(t, w, c, scoord, "simple"))
	require.NoError(t, w.Start(other))
	require.NoError(t, w.RunFor(20_000))

	lg := kmsg.NewPtrListGroupsRequest()
	lg.SetVersion(4)
	for b := int32(1); b <= 3; b++ {
		for _, g := range xask[*kmsg.ListGroupsResponse](t, w, c, b, lg, 10).Groups {
			require.NotContains(t, []string{"live", "simple"}, g.Group, "broker %d lists a deleted group", b)
		}
	}
	ncoord, _ := findCoordinator(t, w, c, "never", 10_000)
	require.Equal(t, map[string]int16{"never": 69}, deleteCodes(xask[*kmsg.DeleteGroupsResponse](t, w, c, ncoord, deleteGroupsReq("never"), 10)))
	require.Empty(t, w.InternalErrors())
}
