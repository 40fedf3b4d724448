package group_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// opaqueJoin is a JoinGroup of protocol type "connect" whose one protocol
// carries metadata bytes the coordinator must not read.
func opaqueJoin(memberID string, meta []byte) group.JoinGroup {
	return group.JoinGroup{
		GroupID: "o", MemberID: memberID, ClientID: "w", ClientHost: "/10.0.0.1", NoMemberIDRequired: true,
		SessionTimeoutMs: 10000, RebalanceTimeoutMs: 10000, ProtocolType: "connect",
		Protocols: []group.Protocol{{Name: "sessioned", Metadata: meta, Subscription: group.Subscription{Generation: -1}}},
	}
}

// TestCoordinatorKeepsTheWiresBytes: a group of another protocol type
// works on opaque bytes: a JoinGroup v0-v3 member joins without
// MEMBER_ID_REQUIRED; the leader gets every member's metadata as sent;
// each member's SyncGroup returns the leader's bytes for it with the
// group's protocol type and name; the status shows host, metadata and
// assignment bytes; new metadata bytes from a follower in a Stable group
// start a rebalance, the same bytes do not.
func TestCoordinatorKeepsTheWiresBytes(t *testing.T) {
	s := newStepper(t)
	out := s.step("a", opaqueJoin("", []byte{1, 2, 3}))
	require.Empty(t, out, "the first join waits for the initial delay, with no MEMBER_ID_REQUIRED")
	s.c.Tick(1000)
	out = s.step("b", opaqueJoin("", []byte{9}))
	require.Empty(t, out)
	for now := int64(2000); len(out) == 0 && now < 30_000; now += 1000 {
		s.c.Tick(now)
		out = s.flush()
	}
	require.Len(t, out, 2)
	lead := out[0].Response.(group.JoinGroupResponse)
	follow := out[1].Response.(group.JoinGroupResponse)
	require.Equal(t, []string{"a", "b"}, []string{out[0].To, out[1].To})
	want := []group.MemberSubscription{
		{MemberID: "w-1", Subscription: group.Subscription{Generation: -1}, Metadata: []byte{1, 2, 3}},
		{MemberID: "w-2", Subscription: group.Subscription{Generation: -1}, Metadata: []byte{9}},
	}
	if diff := cmp.Diff(want, lead.Members); diff != "" {
		t.Errorf("the leader's members (-want +got):\n%s", diff)
	}
	require.Equal(t, []any{"connect", "sessioned", "w-1"}, []any{lead.ProtocolType, lead.ProtocolName, lead.Leader})
	require.Empty(t, follow.Members)

	require.Empty(t, s.step("b", group.SyncGroup{GroupID: "o", GenerationID: 1, MemberID: "w-2", ProtocolType: "connect", ProtocolName: "sessioned"}))
	out = s.step("a", group.SyncGroup{GroupID: "o", GenerationID: 1, MemberID: "w-1", ProtocolType: "connect", ProtocolName: "sessioned",
		Assignments: []group.MemberAssignment{{MemberID: "w-1", Data: []byte("A")}, {MemberID: "w-2", Data: []byte("B")}}})
	got := map[string]group.SyncGroupResponse{}
	for _, o := range out {
		got[o.To] = o.Response.(group.SyncGroupResponse)
	}
	wantSync := map[string]group.SyncGroupResponse{
		"a": {Assignment: []group.TopicPartition{}, Data: []byte("A"), ProtocolType: "connect", ProtocolName: "sessioned"},
		"b": {Assignment: []group.TopicPartition{}, Data: []byte("B"), ProtocolType: "connect", ProtocolName: "sessioned"},
	}
	if diff := cmp.Diff(wantSync, got); diff != "" {
		t.Errorf("SyncGroup answers (-want +got):\n%s", diff)
	}
	st, ok := s.c.Group("o")
	require.True(t, ok)
	m := st.Members[1]
	require.Equal(t, []any{"/10.0.0.1", []byte{9}, []byte("B")}, []any{m.ClientHost, m.Protocol.Metadata, m.AssignmentData})

	again := opaqueJoin("w-2", []byte{9})
	require.Equal(t, group.JoinGroupResponse{GenerationID: 1, ProtocolName: "sessioned", ProtocolType: "connect", Leader: "w-1", MemberID: "w-2", Members: []group.MemberSubscription{}},
		s.only("b", again), "the same bytes: the current generation")
	s.step("b", opaqueJoin("w-2", []byte{10}))
	st, _ = s.c.Group("o")
	require.Equal(t, group.PreparingRebalance, st.State, "new bytes rebalance")
}

// TestLastMemberLeavingEmptiesTheGroup: when the only member of a Stable
// group leaves, the group is Empty at once (the new join phase completes
// with nobody, as Kafka's joinPurgatory.tryCompleteElseWatch does), and a
// JoinGroup with a member id the coordinator does not know creates no
// group.
func TestLastMemberLeavingEmptiesTheGroup(t *testing.T) {
	s := newStepper(t)
	s.step("a", opaqueJoin("", []byte{1}))
	s.c.Tick(3000)
	require.Len(t, s.flush(), 1)
	s.step("a", group.SyncGroup{GroupID: "o", GenerationID: 1, MemberID: "w-1"})
	require.Equal(t, group.LeaveGroupResponse{}, s.only("a", group.LeaveGroup{GroupID: "o", MemberID: "w-1"}))
	st, _ := s.c.Group("o")
	require.Equal(t, []any{group.Empty, int32(2)}, []any{st.State, st.Generation})

	r := s.only("x", opaqueJoin("nobody", nil)).(group.JoinGroupResponse)
	require.Equal(t, group.UnknownMemberID, r.Error)
	j := opaqueJoin("nobody", nil)
	j.GroupID = "never"
	require.Equal(t, group.UnknownMemberID, s.only("x", j).(group.JoinGroupResponse).Error)
	_, ok := s.c.Group("never")
	require.False(t, ok, "no group for an unknown member id")
}
