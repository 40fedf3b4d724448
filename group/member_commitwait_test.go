package group_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// revokingMember returns a member of generation 1 owning t-0 and t-1 that
// is asked to revoke them at 1000 ms: an eager member rebalancing, a
// cooperative one whose new assignment took them away, or one closing.
func revokingMember(t *testing.T, how string, cfg func(*group.MemberConfig)) *group.Member {
	assignor := group.Assignor(group.RangeAssignor{})
	if how == "cooperative" {
		assignor = group.CooperativeStickyAssignor{}
	}
	c := group.DefaultMemberConfig("g", "c", []string{"t"}, assignor)
	if cfg != nil {
		cfg(&c)
	}
	m, err := group.NewMember(c, 0)
	require.NoError(t, err)
	m.SetMetadata([]group.TopicMetadata{{Topic: "t", Partitions: 4}})
	m.Poll(0)
	m.Ready()
	require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 1, ProtocolName: assignor.Name(), Leader: "other", MemberID: "c-1"}))
	m.Ready()
	require.NoError(t, m.Step(group.SyncGroupResponse{Assignment: tps("t", 0, 1, 2)}))
	m.Ready()
	m.Tick(1000)
	m.Ready()
	switch how {
	case "eager":
		require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
		m.Poll(1000)
		m.Ready()
		m.Revoked(nil) // the eager revocation of t-2 carries no commit here
		m.Ready()
		// a second generation gives t-0 and t-1, then a rebalance
		require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 2, ProtocolName: assignor.Name(), Leader: "other", MemberID: "c-1"}))
		m.Ready()
		require.NoError(t, m.Step(group.SyncGroupResponse{Assignment: tps("t", 0, 1)}))
		m.Ready()
		require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
		m.Poll(1000)
	case "cooperative":
		require.NoError(t, m.Step(group.HeartbeatResponse{Error: group.RebalanceInProgress}))
		m.Poll(1000)
		m.Ready()
		require.NoError(t, m.Step(group.JoinGroupResponse{GenerationID: 2, ProtocolName: assignor.Name(), Leader: "other", MemberID: "c-1"}))
		m.Ready()
		require.NoError(t, m.Step(group.SyncGroupResponse{Assignment: tps("t", 2)}))
	case "close":
		m.Poll(1000)
		m.Close()
	}
	rd := m.Ready()
	want := tps("t", 0, 1)
	if how == "close" {
		want = tps("t", 0, 1, 2)
	}
	require.Equal(t, want, rd.Revoke, "%s: revoke", how)
	require.Empty(t, rd.Requests, "%s: requests while revoking", how)
	return m
}

// TestRevocationWaitsForItsCommit: a member that revoked partitions and
// committed their positions rejoins (or, closing, leaves) only once the
// commit is answered, as ConsumerCoordinator.onJoinPrepare and close do in
// Kafka 3.7; a retriable error sends the commit again after
// retry.backoff.ms, another error or no answer within request.timeout.ms
// (at most the rebalance timeout) lets it go on.
func TestRevocationWaitsForItsCommit(t *testing.T) {
	positions := []group.PartitionOffset{
		{TopicPartition: tps("t", 0)[0], Offset: 7, LeaderEpoch: -1},
		{TopicPartition: tps("t", 1)[0], Offset: 3, LeaderEpoch: -1},
	}
	ok := group.OffsetCommitResponse{Offsets: positions, Seq: 1}  // the member's first commit
	ok2 := group.OffsetCommitResponse{Offsets: positions, Seq: 2} // its second attempt
	type answer struct {
		atMs int64
		resp group.Response // nil: only time passes
	}
	type sent struct {
		AtMs     int64
		Requests []string
		Errors   []string
	}
	for _, tt := range []struct {
		name    string
		commits []group.PartitionOffset
		cfg     func(*group.MemberConfig)
		answers []answer
		// want is what the member sent and reported after Revoked (at
		// 1000 ms) and after each answer or tick.
		want func(next string) []sent
	}{
		{
			name: "commit answered: goes on with the answer", commits: positions,
			answers: []answer{{1500, nil}, {1600, ok}},
			want: func(next string) []sent {
				return []sent{{1000, []string{"OffsetCommit"}, nil}, {1500, nil, nil}, {1600, []string{next}, nil}}
			},
		},
		{
			name: "commit refused (REBALANCE_IN_PROGRESS): reported, goes on", commits: positions,
			answers: []answer{{1200, group.OffsetCommitResponse{Error: group.RebalanceInProgress, Offsets: positions, Seq: 1}}},
			want: func(next string) []sent {
				return []sent{{1000, []string{"OffsetCommit"}, nil}, {1200, []string{next}, []string{"REBALANCE_IN_PROGRESS"}}}
			},
		},
		{
			name: "NOT_COORDINATOR: commits again after retry.backoff.ms, goes on when that is answered", commits: positions,
			answers: []answer{
				{1200, group.OffsetCommitResponse{Error: group.NotCoordinator, Seq: 1}}, {1250, nil}, {1300, nil}, {1350, ok}, {1400, ok2},
			},
			want: func(next string) []sent {
				return []sent{
					{1000, []string{"OffsetCommit"}, nil}, {1200, nil, []string{"NOT_COORDINATOR"}},
					{1250, nil, nil}, {1300, []string{"OffsetCommit"}, nil},
					{1350, nil, nil}, // the first attempt's answer again: not the second's
					{1400, []string{next}, nil},
				}
			},
		},
		{
			name: "commit lost: goes on after request.timeout.ms", commits: positions,
			answers: []answer{{30999, nil}, {31000, nil}},
			want: func(next string) []sent {
				return []sent{{1000, []string{"OffsetCommit"}, nil}, {30999, nil, nil}, {31000, []string{next}, []string{"commit timed out"}}}
			},
		},
		{
			name: "commit lost, rebalance timeout shorter: goes on after max.poll.interval.ms", commits: positions,
			cfg:     func(c *group.MemberConfig) { c.MaxPollIntervalMs = 10000 },
			answers: []answer{{10999, nil}, {11000, nil}},
			want: func(next string) []sent {
				return []sent{{1000, []string{"OffsetCommit"}, nil}, {10999, nil, nil}, {11000, []string{next}, []string{"commit timed out"}}}
			},
		},
		{
			name: "no commits: goes on at once",
			want: func(next string) []sent { return []sent{{1000, []string{next}, nil}} },
		},
	} {
		for _, how := range []string{"eager", "cooperative", "close"} {
			t.Run(how+"/"+tt.name, func(t *testing.T) {
				m := revokingMember(t, how, tt.cfg)
				var got []sent
				take := func(at int64) {
					rd := m.Ready()
					s := sent{AtMs: at}
					for _, k := range kinds(rd.Requests) {
						s.Requests = append(s.Requests, k[len("group."):])
					}
					for _, err := range rd.Errors {
						switch {
						case errors.Is(err, group.ErrCommitTimedOut):
							s.Errors = append(s.Errors, "commit timed out")
						default:
							var code group.ErrorCode
							require.True(t, errors.As(err, &code), "error %v", err)
							s.Errors = append(s.Errors, code.String())
						}
					}
					got = append(got, s)
				}
				m.Revoked(tt.commits)
				take(1000)
				for _, a := range tt.answers {
					if a.resp == nil {
						m.Tick(a.atMs)
					} else {
						m.Tick(a.atMs)
						require.NoError(t, m.Step(a.resp))
					}
					take(a.atMs)
				}
				next := "JoinGroup"
				if how == "close" {
					next = "LeaveGroup"
				}
				// heartbeats are not the point here
				for i := range got {
					got[i].Requests = without(got[i].Requests, "Heartbeat")
				}
				if diff := cmp.Diff(tt.want(next), got); diff != "" {
					t.Errorf("requests and errors over time (-want +got):\n%s", diff)
				}
				wantState := group.Joining
				if how == "close" {
					wantState = group.Left
				}
				if m.State() != wantState {
					t.Errorf("state %s; want %s", m.State(), wantState)
				}
				if diff := cmp.Diff(map[string][]group.TopicPartition{"eager": {}, "cooperative": tps("t", 2), "close": {}}[how], m.Fetchable()); diff != "" {
					t.Errorf("fetchable at the end (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func without(xs []string, drop string) []string {
	var out []string
	for _, x := range xs {
		if x != drop {
			out = append(out, x)
		}
	}
	return out
}

// TestRevocationWaitStatus: while it waits for its commit the member
// fetches nothing it revoked, says why it is idle, and ignores a second
// Revoked and its polls.
func TestRevocationWaitStatus(t *testing.T) {
	m := revokingMember(t, "eager", nil)
	commit := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 4, LeaderEpoch: -1}}
	m.Revoked(commit)
	m.Ready()
	m.Revoked(commit)
	m.Poll(1100)
	if reqs := m.Ready().Requests; len(reqs) != 0 {
		t.Errorf("a member waiting for its commit sent %v; want nothing", kinds(reqs))
	}
	st := m.Status()
	want := group.ConsumerStatus{MemberID: "c-1", Generation: 2, State: group.Revoking, Protocol: group.Eager,
		Owned: []group.TopicPartition{}, Fetchable: []group.TopicPartition{}, Idle: "revoking: committing before giving its partitions up",
		GroupProtocol: "classic", Pending: []group.TopicPartition{}, Revoking: []group.TopicPartition{}}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("status while waiting (-want +got):\n%s", diff)
	}
}

// TestRevocationWaitMatchesItsOwnAnswer: the member takes as its
// revocation commit's answer only the one that echoes that request's
// number (OffsetCommit.Seq), as a Kafka client matches an answer to its
// request by correlation id: an earlier commit's answer (even one of the
// same positions) does not end the wait, a late answer to a commit given
// up on does not end the next one's, and the awaited answer ends it even
// when it comes before an earlier commit's (a coordinator that holds an
// answer until the offsets are stored may answer a later request first).
func TestRevocationWaitMatchesItsOwnAnswer(t *testing.T) {
	early := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 2, LeaderEpoch: -1}}
	mine := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 5, LeaderEpoch: -1}}
	next := []group.PartitionOffset{{TopicPartition: tps("t", 1)[0], Offset: 9, LeaderEpoch: -1}}
	sentSeq := func(m *group.Member) int64 {
		t.Helper()
		rd := m.Ready()
		require.Len(t, rd.Requests, 1)
		return rd.Requests[0].(group.OffsetCommit).Seq
	}

	m := revokingMember(t, "eager", nil)
	m.Commit(early) // an auto-commit still in flight
	earlySeq := sentSeq(m)
	m.Revoked(mine)
	mineSeq := sentSeq(m)
	require.NotEqual(t, earlySeq, mineSeq)
	require.NoError(t, m.Step(group.OffsetCommitResponse{Offsets: early, Seq: earlySeq}))
	if got := kinds(m.Ready().Requests); len(got) != 0 || m.State() != group.Revoking {
		t.Errorf("after the earlier commit's answer: state %s, sent %v; want Revoking and nothing", m.State(), got)
	}
	require.NoError(t, m.Step(group.OffsetCommitResponse{Offsets: mine, Seq: mineSeq}))
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(m.Ready().Requests)); diff != "" {
		t.Errorf("after the revocation commit's answer (-want +got):\n%s", diff)
	}

	same := revokingMember(t, "eager", nil)
	same.Commit(mine) // an auto-commit of the same positions
	autoSeq := sentSeq(same)
	same.Revoked(mine)
	ownSeq := sentSeq(same)
	require.NoError(t, same.Step(group.OffsetCommitResponse{Offsets: mine, Seq: autoSeq}))
	if got := kinds(same.Ready().Requests); len(got) != 0 || same.State() != group.Revoking {
		t.Errorf("after the auto-commit's answer: state %s, sent %v; want Revoking (Kafka waits for its own request)", same.State(), got)
	}
	require.NoError(t, same.Step(group.OffsetCommitResponse{Offsets: mine, Seq: ownSeq}))
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(same.Ready().Requests)); diff != "" {
		t.Errorf("after its own commit's answer (-want +got):\n%s", diff)
	}

	// The revocation commit is refused (NOT_COORDINATOR: the offsets
	// could not be stored) before the auto-commit sent earlier is
	// answered: the member sends it again after retry.backoff.ms, and
	// goes on when that is answered.
	first := revokingMember(t, "eager", nil)
	first.Commit(early)
	autoSeq = sentSeq(first)
	first.Revoked(mine)
	ownSeq = sentSeq(first)
	require.NoError(t, first.Step(group.OffsetCommitResponse{Error: group.NotCoordinator, Offsets: mine, Seq: ownSeq}))
	first.Ready()
	require.NoError(t, first.Step(group.OffsetCommitResponse{Offsets: early, Seq: autoSeq}))
	first.Tick(1200)
	againSeq := sentSeq(first)
	require.Greater(t, againSeq, ownSeq, "the revocation commit sent again")
	require.NoError(t, first.Step(group.OffsetCommitResponse{Offsets: mine, Seq: againSeq}))
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(first.Ready().Requests)); diff != "" {
		t.Errorf("after the second attempt's answer (-want +got):\n%s", diff)
	}

	late := revokingMember(t, "cooperative", nil)
	late.Revoked(mine)
	lateSeq := sentSeq(late)
	late.Tick(31000) // no answer: gives up and rejoins
	late.Ready()
	require.NoError(t, late.Step(group.JoinGroupResponse{GenerationID: 3, ProtocolName: "cooperative-sticky", Leader: "other", MemberID: "c-1"}))
	late.Ready()
	require.NoError(t, late.Step(group.SyncGroupResponse{Assignment: nil}))
	require.Equal(t, tps("t", 2), late.Ready().Revoke)
	late.Revoked(next)
	nextSeq := sentSeq(late)
	require.NoError(t, late.Step(group.OffsetCommitResponse{Offsets: mine, Seq: lateSeq})) // the late answer
	if got := kinds(late.Ready().Requests); len(got) != 0 || late.State() != group.Revoking {
		t.Errorf("after a late answer to the commit given up on: state %s, sent %v; want Revoking and nothing", late.State(), got)
	}
	require.NoError(t, late.Step(group.OffsetCommitResponse{Offsets: next, Seq: nextSeq}))
	if diff := cmp.Diff([]string{"group.JoinGroup"}, kinds(late.Ready().Requests)); diff != "" {
		t.Errorf("after the second revocation commit's answer (-want +got):\n%s", diff)
	}
}

// TestCloseWhileWaitingRevokesTheRest: a cooperative member closed while
// it waits for a revocation commit then revokes (and commits) what it
// kept, and leaves once that is answered.
func TestCloseWhileWaitingRevokesTheRest(t *testing.T) {
	m := revokingMember(t, "cooperative", nil)
	first := []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 5, LeaderEpoch: -1}}
	m.Revoked(first)
	firstSeq := m.Ready().Requests[0].(group.OffsetCommit).Seq
	m.Close()
	if rd := m.Ready(); len(rd.Requests)+len(rd.Revoke) != 0 {
		t.Errorf("Close while waiting sent %v and revoked %v; want nothing yet", kinds(rd.Requests), rd.Revoke)
	}
	require.NoError(t, m.Step(group.OffsetCommitResponse{Offsets: first, Seq: firstSeq}))
	rd := m.Ready()
	if diff := cmp.Diff(tps("t", 2), rd.Revoke); diff != "" {
		t.Errorf("once the commit is answered the closing member revokes what it kept (-want +got):\n%s", diff)
	}
	rest := []group.PartitionOffset{{TopicPartition: tps("t", 2)[0], Offset: 8, LeaderEpoch: -1}}
	m.Revoked(rest)
	reqs := m.Ready().Requests
	if diff := cmp.Diff([]string{"group.OffsetCommit"}, kinds(reqs)); diff != "" {
		t.Errorf("commit of the rest (-want +got):\n%s", diff)
	}
	require.NoError(t, m.Step(group.OffsetCommitResponse{Offsets: rest, Seq: reqs[0].(group.OffsetCommit).Seq}))
	if diff := cmp.Diff([]string{"group.LeaveGroup"}, kinds(m.Ready().Requests)); diff != "" {
		t.Errorf("then LeaveGroup (-want +got):\n%s", diff)
	}
	if m.State() != group.Left {
		t.Errorf("state %s; want Left", m.State())
	}
}
