package group_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// stableMember drives a member through join and sync by hand until it owns
// owned in generation 1.
func stableMember(t *testing.T, instance string, owned []group.TopicPartition, assignors ...group.Assignor) *group.Member {
	cfg := group.DefaultMemberConfig("g", "c", []string{"t"}, assignors...)
	cfg.GroupInstanceID = instance
	m, err := group.NewMember(cfg, 0)
	require.NoError(t, err)
	m.SetMetadata([]group.TopicMetadata{{Topic: "t", Partitions: 4}})
	m.Poll(0)
	require.Len(t, m.Ready().Requests, 1)
	require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 1, ProtocolName: assignors[0].Name(), Leader: "other", MemberID: "c-1"}))
	require.Len(t, m.Ready().Requests, 1)
	require.NoError(t, m.Step(group.SyncGroupResponse{Assignment: owned}))
	rd := m.Ready()
	require.Equal(t, len(owned), len(rd.Assigned), "assigned %v", rd.Assigned)
	return m
}

func kinds(reqs []group.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, fmt.Sprintf("%T", r))
	}
	return out
}

func TestEagerMemberRevokesEverythingBeforeRejoining(t *testing.T) {
	m := stableMember(t, "", tps("t", 0, 1), group.RangeAssignor{})
	require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
	if diff := cmp.Diff(tps("t", 0, 1), m.Fetchable()); diff != "" {
		t.Errorf("before its next poll an eager member still fetches (-want +got):\n%s", diff)
	}
	m.Poll(1000)
	rd := m.Ready()
	if diff := cmp.Diff(tps("t", 0, 1), rd.Revoke); diff != "" {
		t.Errorf("eager revoke mismatch (-want +got):\n%s", diff)
	}
	if len(m.Fetchable()) != 0 || len(rd.Requests) != 0 {
		t.Errorf("while revoking: fetchable %v, requests %v; want nothing until Revoked", m.Fetchable(), kinds(rd.Requests))
	}
	commit := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 7}}
	m.Revoked(commit)
	rd = m.Ready()
	if diff := cmp.Diff([]string{"group.OffsetCommit"}, kinds(rd.Requests)); diff != "" {
		t.Errorf("after Revoked the member must commit and wait for the answer (-want +got):\n%s", diff)
	}
	require.NoError(t, m.Step(group.OffsetCommitResponse{Offsets: commit, Seq: rd.Requests[0].(group.OffsetCommit).Seq}))
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(m.Ready().Requests)); diff != "" {
		t.Errorf("once the commit is answered the member joins (-want +got):\n%s", diff)
	}
	if len(m.Owned()) != 0 {
		t.Errorf("an eager member owns %v while rejoining; want nothing", m.Owned())
	}
}

func TestCooperativeMemberKeepsReadingWhileRejoining(t *testing.T) {
	m := stableMember(t, "", tps("t", 0, 1), group.CooperativeStickyAssignor{})
	require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
	m.Poll(1000)
	rd := m.Ready()
	require.Len(t, rd.Requests, 1)
	join := rd.Requests[0].(group.JoinGroup)
	if diff := cmp.Diff(tps("t", 0, 1), join.Protocols[0].Subscription.OwnedPartitions); diff != "" {
		t.Errorf("cooperative JoinGroup owned partitions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tps("t", 0, 1), m.Fetchable()); diff != "" {
		t.Errorf("a cooperative member keeps fetching during the rebalance (-want +got):\n%s", diff)
	}
	require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 2, ProtocolName: "cooperative-sticky", Leader: "other", MemberID: "c-1"}))
	m.Ready()
	require.NoError(t, m.Step(group.SyncGroupResponse{Assignment: tps("t", 0)}))
	rd = m.Ready()
	if diff := cmp.Diff(tps("t", 1), rd.Revoke); diff != "" {
		t.Errorf("cooperative member must revoke only what moved (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tps("t", 0), m.Fetchable()); diff != "" {
		t.Errorf("fetchable while revoking t-1 (-want +got):\n%s", diff)
	}
	m.Revoked(nil)
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(m.Ready().Requests)); diff != "" {
		t.Errorf("after revoking, a cooperative member rejoins at once (-want +got):\n%s", diff)
	}
}

func TestCloseDynamicLeavesStaticDoesNot(t *testing.T) {
	for _, tt := range []struct {
		instance string
		want     []string
	}{
		{"", []string{"group.LeaveGroup"}},
		{"w1", nil},
	} {
		m := stableMember(t, tt.instance, tps("t", 2), group.RangeAssignor{})
		m.Close()
		if diff := cmp.Diff(tps("t", 2), m.Ready().Revoke); diff != "" {
			t.Errorf("close revokes everything first (-want +got):\n%s", diff)
		}
		m.Revoked(nil)
		if diff := cmp.Diff(tt.want, kinds(m.Ready().Requests)); diff != "" {
			t.Errorf("close with instance %q (-want +got):\n%s", tt.instance, diff)
		}
		if m.State() != group.Left || len(m.Fetchable()) != 0 {
			t.Errorf("after close: state %s fetchable %v", m.State(), m.Fetchable())
		}
	}
}

func TestMemberLosesPartitionsWhenRemoved(t *testing.T) {
	m := stableMember(t, "", tps("t", 3), group.RangeAssignor{})
	require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.UnknownMemberID}))
	rd := m.Ready()
	if diff := cmp.Diff(tps("t", 3), rd.Lost); diff != "" {
		t.Errorf("UNKNOWN_MEMBER_ID loses partitions (-want +got):\n%s", diff)
	}
	m.Commit([]group.PartitionOffset{{TopicPartition: tps("t", 3)[0], Offset: 1}})
	if errs := m.Ready().Errors; len(errs) != 1 || !errors.Is(errs[0], group.ErrCommitFailed) {
		t.Errorf("commit after removal: %v; want ErrCommitFailed", errs)
	}
	m.Poll(5000)
	join := m.Ready().Requests[0].(group.JoinGroup)
	if join.MemberID != "" {
		t.Errorf("a removed member rejoins with member id %q; want none", join.MemberID)
	}
}

func TestMemberProtocolIsTheOldestItsAssignorsShare(t *testing.T) {
	mixed, err := group.NewMember(group.DefaultMemberConfig("g", "c", []string{"t"}, group.RangeAssignor{}, group.CooperativeStickyAssignor{}), 0)
	require.NoError(t, err)
	coop, err := group.NewMember(group.DefaultMemberConfig("g", "c", []string{"t"}, group.CooperativeStickyAssignor{}), 0)
	require.NoError(t, err)
	if mixed.Protocol() != group.Eager || coop.Protocol() != group.Cooperative {
		t.Errorf("[range, cooperative-sticky] is %s and [cooperative-sticky] is %s; want eager and cooperative", mixed.Protocol(), coop.Protocol())
	}
	if _, err := group.NewMember(group.MemberConfig{GroupID: "g"}, 0); !errors.Is(err, group.ErrInvalidConfig) {
		t.Errorf("NewMember without assignors: %v; want ErrInvalidConfig", err)
	}
	if err := coop.Step(nil); !errors.Is(err, group.ErrUnknownResponse) {
		t.Errorf("Step(nil) = %v; want ErrUnknownResponse", err)
	}
}

func TestLeaderAssigns(t *testing.T) {
	m, err := group.NewMember(group.DefaultMemberConfig("g", "c", []string{"t"}, group.RangeAssignor{}), 0)
	require.NoError(t, err)
	m.SetMetadata([]group.TopicMetadata{{Topic: "t", Partitions: 3}})
	m.Poll(0)
	m.Ready()
	members := []group.MemberSubscription{
		{MemberID: "c-1", Subscription: group.Subscription{Topics: []string{"t"}}},
		{MemberID: "d-2", Subscription: group.Subscription{Topics: []string{"t"}}},
	}
	require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 1, ProtocolName: "range", Leader: "c-1", MemberID: "c-1", Members: members}))
	sync := m.Ready().Requests[0].(group.SyncGroup)
	want := []group.MemberAssignment{{MemberID: "c-1", Partitions: tps("t", 0, 1)}, {MemberID: "d-2", Partitions: tps("t", 2)}}
	if diff := cmp.Diff(want, sync.Assignments); diff != "" {
		t.Errorf("leader's SyncGroup assignments (-want +got):\n%s", diff)
	}
}

func TestFatalJoinErrorsStopTheMember(t *testing.T) {
	for _, code := range []group.ErrorCode{group.InconsistentGroupProtocol, group.InvalidSessionTimeout, group.GroupMaxSizeReached, group.FencedInstanceID} {
		m, err := group.NewMember(group.DefaultMemberConfig("g", "c", []string{"t"}, group.RangeAssignor{}), 0)
		require.NoError(t, err)
		m.Poll(0)
		m.Ready()
		require.NoError(t, m.Step(group.JoinGroupResponse{Error: code}))
		rd := m.Ready()
		if m.State() != group.Left || len(rd.Errors) != 1 || !errors.Is(rd.Errors[0], code) {
			t.Errorf("JoinGroup %s: state %s errors %v; want Left with the error", code, m.State(), rd.Errors)
		}
		m.Poll(1000)
		if reqs := m.Ready().Requests; len(reqs) != 0 {
			t.Errorf("after %s the member still sends %v", code, kinds(reqs))
		}
	}
}

func TestFetchCommittedComesBackInReady(t *testing.T) {
	m := stableMember(t, "", tps("t", 0), group.RangeAssignor{})
	m.FetchCommitted(tps("t", 0))
	req := m.Ready().Requests[0].(group.OffsetFetch)
	if diff := cmp.Diff(tps("t", 0), req.Partitions); diff != "" {
		t.Errorf("OffsetFetch partitions (-want +got):\n%s", diff)
	}
	answer := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 10, LeaderEpoch: -1}}
	require.NoError(t, m.Step(group.OffsetFetchResponse{Offsets: answer}))
	if diff := cmp.Diff(answer, m.Ready().Fetched); diff != "" {
		t.Errorf("Ready.Fetched (-want +got):\n%s", diff)
	}
}

func TestLostJoinAnswerIsRetried(t *testing.T) {
	cfg := group.DefaultMemberConfig("g", "c", []string{"t"}, group.RangeAssignor{})
	cfg.MaxPollIntervalMs = 20000
	m, err := group.NewMember(cfg, 0)
	require.NoError(t, err)
	m.Poll(0)
	require.Len(t, m.Ready().Requests, 1)
	for now := int64(1000); now <= 30000; now += 1000 { // the answer never comes
		m.Tick(now)
		m.Poll(now)
	}
	if reqs := m.Ready().Requests; len(reqs) != 0 {
		t.Fatalf("rejoined before max(request.timeout.ms, max.poll.interval.ms + 5 s): %v", kinds(reqs))
	}
	m.Tick(30001)
	m.Poll(30001)
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(m.Ready().Requests)); diff != "" {
		t.Errorf("after the JoinGroup timed out the member must join again (-want +got):\n%s", diff)
	}
}

func TestStatusSaysWhyAMemberIsIdle(t *testing.T) {
	eager := stableMember(t, "", tps("t", 0), group.RangeAssignor{})
	require.NoError(t, eager.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
	eager.Poll(1000)
	eager.Revoked(nil)
	coop := stableMember(t, "", nil, group.CooperativeStickyAssignor{})
	busy := stableMember(t, "", tps("t", 1), group.RangeAssignor{})
	got := map[string]string{"eager": eager.Status().Idle, "coop": coop.Status().Idle, "busy": busy.Status().Idle}
	want := map[string]string{
		"eager": "rebalancing: gave up every partition (eager) until the new assignment",
		"coop":  "assigned nothing in generation 1 (cooperative: a moved partition arrives in the next rebalance, once its owner revoked it)",
		"busy":  "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("idle reasons (-want +got):\n%s", diff)
	}
}
