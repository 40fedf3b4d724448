package group_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// stepper wraps a coordinator for unit tests: each call returns the
// responses the request caused.
type stepper struct {
	t     *testing.T
	c     *group.Coordinator
	store *group.MemoryOffsetStore
}

func newStepper(t *testing.T) *stepper {
	store := &group.MemoryOffsetStore{}
	c, err := group.NewCoordinator(group.DefaultConfig(), store, 0)
	require.NoError(t, err)
	return &stepper{t: t, c: c, store: store}
}

func (s *stepper) step(from string, req group.Request) []group.Outgoing {
	s.t.Helper()
	require.NoError(s.t, s.c.Step(from, req))
	return s.flush()
}

// flush stores what the coordinator asks to (group records at once and
// successfully) and returns its answers.
func (s *stepper) flush() []group.Outgoing {
	var out []group.Outgoing
	for s.c.HasReady() {
		rd := s.c.Ready()
		for _, rec := range rd.Commits {
			require.NoError(s.t, s.store.Commit(rec))
		}
		for _, rec := range rd.Groups {
			s.c.GroupStored(rec.StoreID, group.None)
		}
		out = append(out, rd.Responses...)
	}
	return out
}

// only returns the single response of a request answered at once.
func (s *stepper) only(from string, req group.Request) group.Response {
	s.t.Helper()
	out := s.step(from, req)
	require.Len(s.t, out, 1, "responses to %T", req)
	return out[0].Response
}

func rangeJoin(groupID, memberID, instance string) group.JoinGroup {
	return group.JoinGroup{
		GroupID: groupID, MemberID: memberID, GroupInstanceID: instance, ClientID: "c",
		SessionTimeoutMs: 10000, RebalanceTimeoutMs: 30000, ProtocolType: "consumer",
		Protocols: []group.Protocol{{Name: "range", Subscription: group.Subscription{Topics: []string{"t"}, Generation: -1}}},
	}
}

// stableGroup makes group "g" Stable at generation 1 with the given static
// (instance != "") or dynamic members; the first is the leader and gets t-0.
func stableGroup(t *testing.T, instances ...string) (*stepper, []string) {
	s := newStepper(t)
	var ids []string
	for _, inst := range instances {
		r := rangeJoin("g", "", inst)
		if inst == "" {
			resp := s.only("a", r).(group.JoinGroupResponse)
			require.Equal(t, group.MemberIDRequired, resp.Error)
			r.MemberID = resp.MemberID
		}
		s.step("a", r)
		st, _ := s.c.Group("g")
		ids = append(ids, st.Members[len(st.Members)-1].MemberID)
	}
	for now := int64(1000); now <= 100000; now += 1000 {
		if g, _ := s.c.Group("g"); g.State == group.CompletingRebalance {
			break
		}
		s.c.Tick(now)
	}
	s.flush()
	g, _ := s.c.Group("g")
	require.Equal(t, group.CompletingRebalance, g.State)
	for _, id := range ids {
		sync := group.SyncGroup{GroupID: "g", GenerationID: 1, MemberID: id}
		if id == g.Leader {
			sync.Assignments = []group.MemberAssignment{{MemberID: g.Leader, Partitions: tps("t", 0)}}
		}
		s.step("a", sync)
	}
	g, _ = s.c.Group("g")
	require.Equal(t, group.Stable, g.State)
	return s, ids
}

func TestJoinGroupErrors(t *testing.T) {
	tests := []struct {
		name string
		req  func(s *stepper, ids []string) group.JoinGroup
		want group.ErrorCode
	}{
		{"session timeout below group.min.session.timeout.ms", func(*stepper, []string) group.JoinGroup {
			r := rangeJoin("g", "", "")
			r.SessionTimeoutMs = 1000
			return r
		}, group.InvalidSessionTimeout},
		{"empty group id", func(*stepper, []string) group.JoinGroup { return rangeJoin("", "", "") }, group.InvalidGroupID},
		{"member id the coordinator never gave", func(*stepper, []string) group.JoinGroup { return rangeJoin("g", "ghost-9", "") }, group.UnknownMemberID},
		{"no assignor in common", func(*stepper, []string) group.JoinGroup {
			r := rangeJoin("g", "", "")
			r.Protocols[0].Name = "roundrobin"
			return r
		}, group.InconsistentGroupProtocol},
		{"another protocol type", func(*stepper, []string) group.JoinGroup {
			r := rangeJoin("g", "", "")
			r.ProtocolType = "connect"
			return r
		}, group.InconsistentGroupProtocol},
		{"new dynamic member is asked to join again with an id", func(*stepper, []string) group.JoinGroup { return rangeJoin("g", "", "") }, group.MemberIDRequired},
		{"old member id of a static member that was replaced", func(s *stepper, ids []string) group.JoinGroup {
			s.step("b", rangeJoin("g", "", "w2"))
			return rangeJoin("g", ids[1], "w2")
		}, group.FencedInstanceID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ids := stableGroup(t, "", "w2")
			got := s.only("x", tt.req(s, ids)).(group.JoinGroupResponse).Error
			if got != tt.want {
				t.Errorf("JoinGroup error = %s; want %s", got, tt.want)
			}
		})
	}
}

func TestGroupMaxSize(t *testing.T) {
	store := &group.MemoryOffsetStore{}
	cfg := group.DefaultConfig()
	cfg.GroupMaxSize = 1
	c, err := group.NewCoordinator(cfg, store, 0)
	require.NoError(t, err)
	require.NoError(t, c.Step("a", rangeJoin("g", "", "")))
	require.NoError(t, c.Step("b", rangeJoin("g", "", "")))
	rd := c.Ready()
	require.Len(t, rd.Responses, 2)
	if got := rd.Responses[1].Response.(group.JoinGroupResponse).Error; got != group.GroupMaxSizeReached {
		t.Errorf("second member of a group.max.size=1 group got %s; want GROUP_MAX_SIZE_REACHED", got)
	}
}

// TestAnswersByState checks what Heartbeat, SyncGroup and OffsetCommit get
// in each state (GroupCoordinator's validate* checks; Heartbeat in
// CompletingRebalance answers NONE as Kafka's code does, see heartbeat.go).
func TestAnswersByState(t *testing.T) {
	type answers struct{ Heartbeat, Sync, Commit group.ErrorCode }
	got := map[string]answers{}
	ask := func(s *stepper, id string, gen int32) answers {
		hb := s.only("a", group.Heartbeat{GroupID: "g", GenerationID: gen, MemberID: id}).(group.HeartbeatResponse).Error
		commit := s.only("a", group.OffsetCommit{GroupID: "g", GenerationID: gen, MemberID: id,
			Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 5}}}).(group.OffsetCommitResponse).Error
		var sync group.ErrorCode
		if out := s.step("a", group.SyncGroup{GroupID: "g", GenerationID: gen, MemberID: id}); len(out) == 1 {
			sync = out[0].Response.(group.SyncGroupResponse).Error
		} else {
			sync = -1 // parked: no answer yet
		}
		return answers{hb, sync, commit}
	}

	s, ids := stableGroup(t, "", "")
	got["Stable"] = ask(s, ids[1], 1)
	got["Stable, wrong generation"] = ask(s, ids[1], 7)
	got["Stable, unknown member"] = ask(s, "nobody", 1)

	s.step("a", rangeJoin("g", ids[0], "")) // the leader rejoins: rebalance
	got["PreparingRebalance"] = ask(s, ids[1], 1)

	s.step("b", rangeJoin("g", ids[1], "")) // everyone is in: generation 2
	got["CompletingRebalance"] = ask(s, ids[1], 2)

	want := map[string]answers{
		"Stable":                   {group.None, group.None, group.None},
		"Stable, wrong generation": {group.IllegalGeneration, group.IllegalGeneration, group.IllegalGeneration},
		"Stable, unknown member":   {group.UnknownMemberID, group.UnknownMemberID, group.UnknownMemberID},
		"PreparingRebalance":       {group.RebalanceInProgress, group.RebalanceInProgress, group.None},
		"CompletingRebalance":      {group.None, -1, group.RebalanceInProgress},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers by state mismatch (-want +got):\n%s", diff)
	}
}

func TestStaticRejoinKeepsAssignmentAndFencesOldID(t *testing.T) {
	s, ids := stableGroup(t, "w1", "w2")
	before, _ := s.c.Group("g")
	resp := s.only("restarted", rangeJoin("g", "", "w1")).(group.JoinGroupResponse)
	require.Equal(t, group.None, resp.Error)
	if resp.MemberID == ids[0] || resp.GenerationID != 1 || !resp.SkipAssignment {
		t.Errorf("static leader rejoin = %+v; want a new member id, generation 1, skip-assignment", resp)
	}
	sync := s.only("restarted", group.SyncGroup{GroupID: "g", GenerationID: 1, MemberID: resp.MemberID, GroupInstanceID: "w1"}).(group.SyncGroupResponse)
	if diff := cmp.Diff(tps("t", 0), sync.Assignment); diff != "" {
		t.Errorf("restarted static member's assignment mismatch (-want +got):\n%s", diff)
	}
	zombie := s.only("zombie", group.Heartbeat{GroupID: "g", GenerationID: 1, MemberID: ids[0], GroupInstanceID: "w1"}).(group.HeartbeatResponse)
	if zombie.Error != group.FencedInstanceID {
		t.Errorf("old member id's heartbeat got %s; want FENCED_INSTANCE_ID", zombie.Error)
	}
	after, _ := s.c.Group("g")
	if after.State != group.Stable || after.Generation != before.Generation {
		t.Errorf("static rejoin moved the group from %s gen %d to %s gen %d; want no rebalance", before.State, before.Generation, after.State, after.Generation)
	}
}

func TestRebalanceTimeoutRemovesMembersThatDoNotRejoin(t *testing.T) {
	s, ids := stableGroup(t, "", "")
	start := s.c.NowMs()
	s.step("a", rangeJoin("g", ids[0], "")) // the leader rejoins: rebalance, timeout 30 s
	for now := start + 5000; now < start+30000; now += 5000 {
		s.c.Tick(now)
		s.only("b", group.Heartbeat{GroupID: "g", GenerationID: 1, MemberID: ids[1]}) // alive, but never rejoins
	}
	s.c.Tick(start + 29999)
	require.Empty(t, s.flush(), "join phase ended before the rebalance timeout")
	s.c.Tick(start + 30000)
	out := s.flush()
	g, _ := s.c.Group("g")
	if g.State != group.CompletingRebalance || g.Generation != 2 || len(g.Members) != 1 || g.Members[0].MemberID != ids[0] {
		t.Errorf("after the rebalance timeout the group is %+v; want generation 2 with only %s", g, ids[0])
	}
	if len(out) != 1 || out[0].Response.(group.JoinGroupResponse).GenerationID != 2 {
		t.Errorf("responses at the rebalance timeout = %+v; want one JoinGroup for generation 2", out)
	}
}

func TestInitialRebalanceDelayExtendsForNewMembers(t *testing.T) {
	s := newStepper(t)
	for i, at := range []int64{0, 2000} {
		s.c.Tick(at)
		r := rangeJoin("g", "", "")
		id := s.only("a", r).(group.JoinGroupResponse).MemberID
		r.MemberID = id
		require.Empty(t, s.step("a", r), "join %d answered before the initial delay ended", i)
	}
	s.c.Tick(3000) // the first delay ends, but a member arrived during it: wait 3 s more
	if out := s.flush(); len(out) != 0 {
		t.Fatalf("group completed its first join at 3000 ms although a member joined at 2000 ms: %+v", out)
	}
	s.c.Tick(6000)
	if out := s.flush(); len(out) != 2 {
		t.Fatalf("at 6000 ms got %d JoinGroup answers; want 2", len(out))
	}
}

func TestDeleteGroup(t *testing.T) {
	s, _ := stableGroup(t, "")
	if got := s.c.DeleteGroup("g"); got != group.NonEmptyGroup {
		t.Errorf("DeleteGroup of a Stable group = %s; want NON_EMPTY_GROUP", got)
	}
	if got := s.c.DeleteGroup("nope"); got != group.GroupIDNotFound {
		t.Errorf("DeleteGroup of an unknown group = %s; want GROUP_ID_NOT_FOUND", got)
	}
	s.only("x", group.OffsetCommit{GroupID: "simple", GenerationID: -1, Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 3)[0], Offset: 9}}})
	if got := s.c.DeleteGroup("simple"); got != group.None {
		t.Fatalf("DeleteGroup of a group with only offsets = %s; want NONE", got)
	}
	g, _ := s.c.Group("simple")
	rd := s.c.Ready()
	if g.State != group.Dead || len(rd.Commits) != 1 || !rd.Commits[0].Tombstone {
		t.Errorf("after DeleteGroup: state %s, commits %+v; want Dead and one tombstone", g.State, rd.Commits)
	}
	if got := s.c.DeleteGroup("simple"); got != group.GroupIDNotFound {
		t.Errorf("DeleteGroup of a Dead group = %s; want GROUP_ID_NOT_FOUND", got)
	}
}

func TestOffsetFetchAndSimpleCommit(t *testing.T) {
	s := newStepper(t)
	commit := s.only("admin", group.OffsetCommit{GroupID: "g", GenerationID: -1,
		Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 1)[0], Offset: 42, LeaderEpoch: 3}}}).(group.OffsetCommitResponse)
	require.Equal(t, group.None, commit.Error)
	got := s.only("admin", group.OffsetFetch{GroupID: "g", Partitions: tps("t", 1, 0)}).(group.OffsetFetchResponse)
	want := group.OffsetFetchResponse{Offsets: []group.PartitionOffset{
		{TopicPartition: tps("t", 0)[0], Offset: -1, LeaderEpoch: -1},
		{TopicPartition: tps("t", 1)[0], Offset: 42, LeaderEpoch: 3},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OffsetFetch mismatch (-want +got):\n%s", diff)
	}
	bad := s.only("admin", group.OffsetCommit{GroupID: "none", GenerationID: 4, MemberID: "m"}).(group.OffsetCommitResponse)
	if bad.Error != group.IllegalGeneration {
		t.Errorf("member commit to an unknown group = %s; want ILLEGAL_GENERATION", bad.Error)
	}
}

func TestLag(t *testing.T) {
	tests := []struct {
		hw, committed, lag int64
		known              bool
	}{
		{20, 10, 10, true}, {20, 20, 0, true}, {9, 1, 8, true}, {5, -1, 0, false},
	}
	for _, tt := range tests {
		lag, ok := group.Lag(tt.hw, tt.committed)
		if lag != tt.lag || ok != tt.known {
			t.Errorf("Lag(%d, %d) = %d, %v; want %d, %v", tt.hw, tt.committed, lag, ok, tt.lag, tt.known)
		}
	}
}

func TestNamesAndCodes(t *testing.T) {
	got := []string{
		group.RebalanceInProgress.String(), group.IllegalGeneration.Error(), group.ErrorCode(999).String(),
		group.CompletingRebalance.String(), group.Dead.String(), group.Cooperative.String(),
	}
	want := []string{
		"REBALANCE_IN_PROGRESS", "group: ILLEGAL_GENERATION (22)", "UNKNOWN_SERVER_ERROR(999)",
		"CompletingRebalance", "Dead", "cooperative",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	if p := (group.GroupStatus{Protocol: "cooperative-sticky"}).RebalanceProtocol(); p != group.Cooperative {
		t.Errorf("cooperative-sticky group reports protocol %s", p)
	}
	if err := error(group.FencedInstanceID); !errors.Is(err, group.FencedInstanceID) || group.None.Err() != nil {
		t.Errorf("ErrorCode must work with errors.Is and None.Err() must be nil")
	}
	if _, err := group.NewCoordinator(group.DefaultConfig(), nil, 0); !errors.Is(err, group.ErrInvalidConfig) {
		t.Errorf("NewCoordinator without a store: %v; want ErrInvalidConfig", err)
	}
}

// Found by TestCoordinatorTakesAnyRequest: a static member rejoining with its
// member id but without its instance id must stay static, so a restart with
// the instance id still finds and replaces it.
func TestStaticMemberKeepsItsInstanceID(t *testing.T) {
	s, ids := stableGroup(t, "w1")
	s.step("a", rangeJoin("g", ids[0], ""))
	resp := s.step("restarted", rangeJoin("g", "", "w1"))
	g, _ := s.c.Group("g")
	if len(g.Members) != 1 || g.Members[0].GroupInstanceID != "w1" || g.Members[0].MemberID == ids[0] {
		t.Errorf("after the restart the group is %+v (responses %+v); want one member w1 with a new id", g, resp)
	}
}

func TestCommitMetadataTooLarge(t *testing.T) {
	s := newStepper(t)
	big := make([]byte, 4097)
	resp := s.only("x", group.OffsetCommit{GroupID: "g", GenerationID: -1,
		Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: 1, Metadata: string(big)}}}).(group.OffsetCommitResponse)
	if resp.Error != group.OffsetMetadataTooLarge {
		t.Errorf("4097 bytes of metadata: %s; want OFFSET_METADATA_TOO_LARGE", resp.Error)
	}
}

func TestDescribe(t *testing.T) {
	got := []string{
		group.DescribeRequest(group.Heartbeat{GroupID: "g", GenerationID: 2, MemberID: "c-1"}),
		group.DescribeRequest(group.OffsetFetch{GroupID: "g", Partitions: tps("t", 1, 0)}),
		group.DescribeResponse(group.HeartbeatResponse{Error: group.RebalanceInProgress}),
		group.DescribeResponse(group.OffsetFetchResponse{Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 0)[0], Offset: -1}}}),
		group.DescribeResponse(group.SyncGroupResponse{Assignment: tps("t", 0, 1)}),
	}
	want := []string{
		"Heartbeat g gen=2 member=c-1",
		"OffsetFetch g [t-1 t-0]",
		"Heartbeat REBALANCE_IN_PROGRESS",
		"OffsetFetch t-0=-1",
		"SyncGroup [t-0 t-1]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("descriptions (-want +got):\n%s", diff)
	}
}

// TestDeadGroupAnswers: between DeleteGroup and the next Tick the group is
// Dead, and 3.7's GroupCoordinator answers every request that names a
// member with COORDINATOR_NOT_AVAILABLE (2.0 answered UNKNOWN_MEMBER_ID), so
// the member finds its coordinator again; OffsetFetch finds no offsets
// (GroupMetadataManager.getOffsets).
func TestDeadGroupAnswers(t *testing.T) {
	s := newStepper(t)
	s.only("x", group.OffsetCommit{GroupID: "g", GenerationID: -1, Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 3)[0], Offset: 9}}})
	require.Equal(t, group.None, s.c.DeleteGroup("g"))
	s.flush()
	requests := []group.Request{
		rangeJoin("g", "", ""),
		rangeJoin("g", "m-1", ""),
		group.SyncGroup{GroupID: "g", GenerationID: 1, MemberID: "m-1", ProtocolType: "consumer", ProtocolName: "range"},
		group.Heartbeat{GroupID: "g", GenerationID: 1, MemberID: "m-1"},
		group.LeaveGroup{GroupID: "g", MemberID: "m-1"},
		group.OffsetCommit{GroupID: "g", GenerationID: 1, MemberID: "m-1", Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 3)[0], Offset: 10}}},
		group.OffsetCommit{GroupID: "g", GenerationID: -1, Offsets: []group.PartitionOffset{{TopicPartition: tps("t", 3)[0], Offset: 10}}},
		group.OffsetFetch{GroupID: "g", Partitions: tps("t", 3)},
	}
	var got []string
	for _, r := range requests {
		resp := s.only("a", r)
		line := fmt.Sprintf("%T: %s", r, responseError(resp).String())
		if f, ok := resp.(group.OffsetFetchResponse); ok {
			for _, po := range f.Offsets {
				line += fmt.Sprintf(" %s offset %d", po.TopicPartition, po.Offset)
			}
		}
		got = append(got, line)
	}
	want := []string{
		"group.JoinGroup: COORDINATOR_NOT_AVAILABLE",
		"group.JoinGroup: COORDINATOR_NOT_AVAILABLE",
		"group.SyncGroup: COORDINATOR_NOT_AVAILABLE",
		"group.Heartbeat: COORDINATOR_NOT_AVAILABLE",
		"group.LeaveGroup: COORDINATOR_NOT_AVAILABLE",
		"group.OffsetCommit: COORDINATOR_NOT_AVAILABLE",
		"group.OffsetCommit: COORDINATOR_NOT_AVAILABLE",
		"group.OffsetFetch: NONE t-3 offset -1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers from a Dead group (-want +got):\n%s", diff)
	}
}

// SyncGroup v5+ carries the protocol type and name; one other than the
// group's is refused (GroupCoordinator.validateSyncGroup, 3.7).
func TestSyncGroupChecksProtocol(t *testing.T) {
	s, ids := stableGroup(t, "")
	tests := []struct {
		protocolType, protocolName string
		want                       group.ErrorCode
	}{
		{"", "", group.None},
		{"consumer", "range", group.None},
		{"connect", "range", group.InconsistentGroupProtocol},
		{"consumer", "roundrobin", group.InconsistentGroupProtocol},
	}
	for _, tt := range tests {
		resp := s.only("a", group.SyncGroup{GroupID: "g", GenerationID: 1, MemberID: ids[0],
			ProtocolType: tt.protocolType, ProtocolName: tt.protocolName}).(group.SyncGroupResponse)
		if resp.Error != tt.want {
			t.Errorf("SyncGroup with protocol %q/%q: %s, want %s", tt.protocolType, tt.protocolName, resp.Error, tt.want)
		}
	}
}

// responseError is the top-level error code of any response.
func responseError(r group.Response) group.ErrorCode {
	switch r := r.(type) {
	case group.JoinGroupResponse:
		return r.Error
	case group.SyncGroupResponse:
		return r.Error
	case group.HeartbeatResponse:
		return r.Error
	case group.LeaveGroupResponse:
		return r.Error
	case group.OffsetCommitResponse:
		return r.Error
	case group.OffsetFetchResponse:
		return r.Error
	}
	return -1
}

// TestTxnCommitError: a TxnOffsetCommit is taken from a producer outside the
// group only while the group is Empty or unknown (generation -1), and from a
// member only for its current generation, its static instance not fenced
// (Kafka 3.7's GroupCoordinator.validateOffsetCommit, KIP-447).
func TestTxnCommitError(t *testing.T) {
	s, ids := stableGroup(t, "w1", "w2")
	type commit struct {
		group      string
		generation int32
		member     string
		instance   string
	}
	got := map[string]group.ErrorCode{}
	for name, c := range map[string]commit{
		"the member, its generation":       {"g", 1, ids[1], "w2"},
		"the member, an older generation":  {"g", 0, ids[1], "w2"},
		"an unknown member":                {"g", 1, "nobody", ""},
		"a fenced static instance":         {"g", 1, ids[0], "w2"},
		"no generation, a non-empty group": {"g", -1, "", ""},
		"no generation, an unknown group":  {"other", -1, "", ""},
		"a generation, an unknown group":   {"other", 3, "m", ""},
		"a member without generation (v3)": {"g", -1, ids[1], "w2"},
	} {
		got[name] = s.c.TxnCommitError(c.group, c.generation, c.member, c.instance)
	}
	want := map[string]group.ErrorCode{
		"the member, its generation":       group.None,
		"the member, an older generation":  group.IllegalGeneration,
		"an unknown member":                group.UnknownMemberID,
		"a fenced static instance":         group.FencedInstanceID,
		"no generation, a non-empty group": group.None, // a transactional commit needs no member
		"no generation, an unknown group":  group.None,
		"a generation, an unknown group":   group.UnknownMemberID,
		"a member without generation (v3)": group.IllegalGeneration,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TxnOffsetCommit answers (-want +got):\n%s", diff)
	}
}
