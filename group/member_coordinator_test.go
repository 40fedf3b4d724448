package group_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// TestMemberReactsToCoordinatorErrorsAsKafka: a heartbeat or commit
// answered COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR or
// COORDINATOR_LOAD_IN_PROGRESS only sends the client looking for the
// coordinator (Kafka 3.7's HeartbeatResponseHandler): the member keeps its
// partitions and does not rejoin. A JoinGroup or SyncGroup answered so is
// retried at the next poll, with the same member id.
func TestMemberReactsToCoordinatorErrorsAsKafka(t *testing.T) {
	for _, code := range []group.ErrorCode{group.CoordinatorNotAvailable, group.NotCoordinator, group.CoordinatorLoadInProgress} {
		m := stableMember(t, "", tps("t", 1), group.RangeAssignor{})
		require.NoError(t, m.Step(group.HeartbeatResponse{Error: code}))
		require.NoError(t, m.Step(group.OffsetCommitResponse{Error: code}))
		m.Ready()
		m.Poll(1000)
		if got := kinds(m.Ready().Requests); m.State() != group.MemberStable || len(got) != 0 {
			t.Errorf("%s on a heartbeat and a commit: state %s, requests %v; want Stable and nothing", code, m.State(), got)
		}
		if diff := cmp.Diff(tps("t", 1), m.Fetchable()); diff != "" {
			t.Errorf("%s: fetchable (-want +got):\n%s", code, diff)
		}

		cfg := group.DefaultMemberConfig("g", "c", []string{"t"}, group.RangeAssignor{})
		j, err := group.NewMember(cfg, 0)
		require.NoError(t, err)
		j.Poll(0)
		j.Ready()
		require.NoError(t, j.Step(group.JoinGroupResponse{Error: group.MemberIDRequired, MemberID: "c-7"}))
		j.Ready()
		require.NoError(t, j.Step(group.JoinGroupResponse{Error: code}))
		j.Poll(1000)
		reqs := j.Ready().Requests
		if len(reqs) != 1 {
			t.Fatalf("%s on a JoinGroup: the next poll sent %v; want one JoinGroup", code, kinds(reqs))
		}
		if join, ok := reqs[0].(group.JoinGroup); !ok || join.MemberID != "c-7" {
			t.Errorf("%s on a JoinGroup: the retry is %#v; want a JoinGroup as c-7", code, reqs[0])
		}
	}
}
