package cluster_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// xgroupWorld is a three-broker modern world with topic g of four
// partitions (replicas on every broker), quiet.
func xgroupWorld(t *testing.T, seed uint64) *cluster.World {
	t.Helper()
	w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "g", Partitions: 4, ReplicationFactor: 3}))
	require.NoError(t, w.RunFor(500))
	return w
}

// xclient is one external client: its number, client.id and address.
type xclient struct {
	n      int32
	id     string
	remote string
}

func (c xclient) send(t *testing.T, w *cluster.World, broker int32, req kmsg.Request) uint64 {
	t.Helper()
	id, err := w.External(cluster.ExternalRequest{Client: c.n, ClientID: c.id, Remote: c.remote, Broker: broker,
		Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	require.NoError(t, err)
	return id
}

// answers collects the answers to ids, running the world 10 ms at a time
// up to ms; a missing one fails the test.
type answers map[uint64]kmsg.Response

func (a answers) await(t *testing.T, w *cluster.World, ms int64, ids ...uint64) {
	t.Helper()
	for waited := int64(0); ; waited += 10 {
		for _, x := range w.ExternalAnswers() {
			a[x.ID] = x.Response
		}
		missing := 0
		for _, id := range ids {
			if a[id] == nil {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		require.Less(t, waited, ms, "%d answers missing", missing)
		require.NoError(t, w.RunFor(10))
	}
}

func xask[R kmsg.Response](t *testing.T, w *cluster.World, c xclient, broker int32, req kmsg.Request, ms int64) R {
	t.Helper()
	id := c.send(t, w, broker, req)
	a := answers{}
	a.await(t, w, ms, id)
	return a[id].(R)
}

// findCoordinator asks broker 1 for groupID's coordinator (v4) every
// 100 ms until one is named, up to ms; it returns it and the codes of
// the answers before.
func findCoordinator(t *testing.T, w *cluster.World, c xclient, groupID string, ms int64) (int32, []int16) {
	t.Helper()
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.SetVersion(4)
	req.CoordinatorKeys = []string{groupID}
	var codes []int16
	for waited := int64(0); ; waited += 100 {
		r := xask[*kmsg.FindCoordinatorResponse](t, w, c, 1, req, 10)
		require.Len(t, r.Coordinators, 1)
		if r.Coordinators[0].ErrorCode == 0 {
			return r.Coordinators[0].NodeID, codes
		}
		codes = append(codes, r.Coordinators[0].ErrorCode)
		require.Less(t, waited, ms, "no coordinator for %s: %v", groupID, codes)
		require.NoError(t, w.RunFor(100))
	}
}

func consumerMeta(topics []string, owned map[string][]int32, generation int32) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version, m.Topics, m.Generation = 3, topics, generation
	for topic, ps := range owned {
		o := kmsg.NewConsumerMemberMetadataOwnedPartition()
		o.Topic, o.Partitions = topic, ps
		m.OwnedPartitions = append(m.OwnedPartitions, o)
	}
	return m.AppendTo(nil)
}

func assignmentBytes(topic string, ps ...int32) []byte {
	a := kmsg.NewConsumerMemberAssignment()
	a.Version = 3
	if len(ps) > 0 {
		at := kmsg.NewConsumerMemberAssignmentTopic()
		at.Topic, at.Partitions = topic, ps
		a.Topics = append(a.Topics, at)
	}
	return a.AppendTo(nil)
}

func assigned(t *testing.T, b []byte) map[string][]int32 {
	t.Helper()
	a := kmsg.NewConsumerMemberAssignment()
	require.NoError(t, a.ReadFrom(b))
	out := map[string][]int32{}
	for _, at := range a.Topics {
		out[at.Topic] = append(out[at.Topic], at.Partitions...)
	}
	return out
}

func joinReq(groupID, memberID, instance, protocolType string, protocols map[string][]byte, order ...string) *kmsg.JoinGroupRequest {
	req := kmsg.NewPtrJoinGroupRequest()
	req.SetVersion(9)
	req.Group, req.MemberID, req.ProtocolType = groupID, memberID, protocolType
	req.SessionTimeoutMillis, req.RebalanceTimeoutMillis = 10_000, 20_000
	if instance != "" {
		req.InstanceID = &instance
	}
	for _, name := range order {
		p := kmsg.NewJoinGroupRequestProtocol()
		p.Name, p.Metadata = name, protocols[name]
		req.Protocols = append(req.Protocols, p)
	}
	return req
}

func syncReq(groupID, memberID string, gen int32, protocolType, protocol string, assignments map[string][]byte) *kmsg.SyncGroupRequest {
	req := kmsg.NewPtrSyncGroupRequest()
	req.SetVersion(5)
	req.Group, req.MemberID, req.Generation = groupID, memberID, gen
	req.ProtocolType, req.Protocol = &protocolType, &protocol
	for m, a := range assignments {
		ga := kmsg.NewSyncGroupRequestGroupAssignment()
		ga.MemberID, ga.MemberAssignment = m, a
		req.GroupAssignment = append(req.GroupAssignment, ga)
	}
	return req
}

func heartbeatReq(groupID, memberID string, gen int32) *kmsg.HeartbeatRequest {
	req := kmsg.NewPtrHeartbeatRequest()
	req.SetVersion(4)
	req.Group, req.MemberID, req.Generation = groupID, memberID, gen
	return req
}

func commitReq(groupID, memberID string, gen int32, topic string, offsets map[int32]int64) *kmsg.OffsetCommitRequest {
	req := kmsg.NewPtrOffsetCommitRequest()
	req.SetVersion(8)
	req.Group, req.MemberID, req.Generation = groupID, memberID, gen
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = topic
	for p := int32(0); p < 64; p++ {
		if o, ok := offsets[p]; ok {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			meta := "m"
			rp.Partition, rp.Offset, rp.LeaderEpoch, rp.Metadata = p, o, 0, &meta
			rt.Partitions = append(rt.Partitions, rp)
		}
	}
	req.Topics = append(req.Topics, rt)
	return req
}

func commitCodes(r *kmsg.OffsetCommitResponse) map[int32]int16 {
	out := map[int32]int16{}
	for _, t := range r.Topics {
		for _, p := range t.Partitions {
			out[p.Partition] = p.ErrorCode
		}
	}
	return out
}

// fetchOffsets asks OffsetFetch v8 for every committed offset of groups.
func fetchOffsets(t *testing.T, w *cluster.World, c xclient, broker int32, groups ...string) map[string]map[int32]int64 {
	t.Helper()
	req := kmsg.NewPtrOffsetFetchRequest()
	req.SetVersion(8)
	req.RequireStable = true
	for _, g := range groups {
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group = g
		req.Groups = append(req.Groups, rg)
	}
	r := xask[*kmsg.OffsetFetchResponse](t, w, c, broker, req, 10)
	out := map[string]map[int32]int64{}
	for _, g := range r.Groups {
		require.Equal(t, int16(0), g.ErrorCode, "group %s", g.Group)
		out[g.Group] = map[int32]int64{}
		for _, tp := range g.Topics {
			for _, p := range tp.Partitions {
				out[g.Group][p.Partition] = p.Offset
			}
		}
	}
	return out
}

// TestExternalGroupCycle: one external member's whole life in a group, in
// raw requests at Kafka 3.7's versions: FindCoordinator names the leader
// of the group's __consumer_offsets partition; JoinGroup is first
// MEMBER_ID_REQUIRED (KIP-394), then, after the initial rebalance delay,
// generation 1 with the member as leader and its metadata bytes as sent;
// SyncGroup gives back the leader's assignment bytes; Heartbeat, an
// OffsetCommit and OffsetFetch; another broker answers NOT_COORDINATOR;
// DescribeGroups and ListGroups show the member (client id, host,
// metadata, assignment) and the world's state shows it with the lag of
// its commits; LeaveGroup empties the group.
func TestExternalGroupCycle(t *testing.T) {
	w := xgroupWorld(t, 5)
	c := xclient{1, "kgo", "10.1.2.3:50000"}
	coord, before := findCoordinator(t, w, c, "cycle", 5000)
	require.Equal(t, []int16{15}, before, "COORDINATOR_NOT_AVAILABLE while the __consumer_offsets it created has no leader")
	p, _ := group.OffsetsPartition("cycle", cluster.DefaultOffsetsTopicNumPartitions)
	require.Equal(t, w.PartitionLeader(cluster.OffsetsTopic, p), coord)

	meta := consumerMeta([]string{"g"}, nil, -1)
	first := xask[*kmsg.JoinGroupResponse](t, w, c, coord, joinReq("cycle", "", "", "consumer", map[string][]byte{"range": meta}, "range"), 10)
	require.Equal(t, int16(79), first.ErrorCode, "MEMBER_ID_REQUIRED")
	require.NotEmpty(t, first.MemberID)
	mid := first.MemberID

	j := xask[*kmsg.JoinGroupResponse](t, w, c, coord, joinReq("cycle", mid, "", "consumer", map[string][]byte{"range": meta}, "range"), 5000)
	require.Equal(t, int16(0), j.ErrorCode)
	require.Equal(t, []any{int32(1), "range", mid, mid}, []any{j.Generation, *j.Protocol, j.LeaderID, j.MemberID})
	require.Len(t, j.Members, 1)
	if diff := cmp.Diff(meta, j.Members[0].ProtocolMetadata); diff != "" {
		t.Errorf("the leader's view of its own metadata (-want +got):\n%s", diff)
	}

	mine := assignmentBytes("g", 0, 1, 2, 3)
	s := xask[*kmsg.SyncGroupResponse](t, w, c, coord, syncReq("cycle", mid, 1, "consumer", "range", map[string][]byte{mid: mine}), 10)
	require.Equal(t, int16(0), s.ErrorCode)
	if diff := cmp.Diff(mine, s.MemberAssignment); diff != "" {
		t.Errorf("assignment (-want +got):\n%s", diff)
	}
	require.Equal(t, int16(0), xask[*kmsg.HeartbeatResponse](t, w, c, coord, heartbeatReq("cycle", mid, 1), 10).ErrorCode)
	require.Equal(t, int16(22), xask[*kmsg.HeartbeatResponse](t, w, c, coord, heartbeatReq("cycle", mid, 7), 10).ErrorCode, "ILLEGAL_GENERATION")
	other := coord%3 + 1
	require.Equal(t, int16(16), xask[*kmsg.HeartbeatResponse](t, w, c, other, heartbeatReq("cycle", mid, 1), 10).ErrorCode, "NOT_COORDINATOR")

	// three records to g-0, so that its lag is the HW minus the commit
	pr := produceReq(-1, clientBatch(0))
	pr.Topics[0].Topic = "g"
	require.Equal(t, int16(0), xask[*kmsg.ProduceResponse](t, w, c, w.PartitionLeader("g", 0), pr, 2000).Topics[0].Partitions[0].ErrorCode)
	cr := xask[*kmsg.OffsetCommitResponse](t, w, c, coord, commitReq("cycle", mid, 1, "g", map[int32]int64{0: 2, 3: 0}), 2000)
	require.Equal(t, map[int32]int16{0: 0, 3: 0}, commitCodes(cr))
	bad := xask[*kmsg.OffsetCommitResponse](t, w, c, coord, commitReq("cycle", mid, 1, "nope", map[int32]int64{0: 1}), 10)
	require.Equal(t, map[int32]int16{0: 3}, commitCodes(bad), "UNKNOWN_TOPIC_OR_PARTITION")
	none := ""
	for i := 0; none == ""; i++ {
		if p, _ := group.OffsetsPartition(fmt.Sprint("none-", i), cluster.DefaultOffsetsTopicNumPartitions); w.PartitionLeader(cluster.OffsetsTopic, p) == coord {
			none = fmt.Sprint("none-", i)
		}
	}
	require.Equal(t, map[string]map[int32]int64{"cycle": {0: 2, 3: 0}, none: {}}, fetchOffsets(t, w, c, coord, "cycle", none))

	dg := kmsg.NewPtrDescribeGroupsRequest()
	dg.SetVersion(5)
	dg.Groups = []string{"cycle"}
	d := xask[*kmsg.DescribeGroupsResponse](t, w, c, coord, dg, 10).Groups[0]
	require.Equal(t, []any{int16(0), "Stable", "consumer", "range"}, []any{d.ErrorCode, d.State, d.ProtocolType, d.Protocol})
	require.Len(t, d.Members, 1)
	require.Equal(t, []any{mid, "kgo", "/10.1.2.3"}, []any{d.Members[0].MemberID, d.Members[0].ClientID, d.Members[0].ClientHost})
	require.Equal(t, meta, d.Members[0].ProtocolMetadata)
	require.Equal(t, mine, d.Members[0].MemberAssignment)

	lg := kmsg.NewPtrListGroupsRequest()
	lg.SetVersion(4)
	lg.StatesFilter = []string{"stable"}
	l := xask[*kmsg.ListGroupsResponse](t, w, c, coord, lg, 10)
	require.Len(t, l.Groups, 1)
	require.Equal(t, []string{"cycle", "consumer", "Stable"}, []string{l.Groups[0].Group, l.Groups[0].ProtocolType, l.Groups[0].GroupState})

	var gi cluster.GroupInfo
	for _, g := range w.State().Groups {
		if g.Name == "cycle" {
			gi = g
		}
	}
	require.Equal(t, "Stable", gi.State)
	require.Len(t, gi.Members, 1)
	require.Equal(t, []any{"kgo", "/10.1.2.3", 4}, []any{gi.Members[0].ClientID, gi.Members[0].Host, len(gi.Members[0].Partitions)})
	lags := map[int32]int64{}
	for _, o := range gi.Offsets {
		lags[o.Partition] = o.Lag
	}
	require.Equal(t, map[int32]int64{0: 1, 1: -1, 2: -1, 3: 0}, lags)

	simple := commitReq("cycle", "", -1, "g", map[int32]int64{1: 1})
	require.Equal(t, map[int32]int16{1: 25}, commitCodes(xask[*kmsg.OffsetCommitResponse](t, w, c, coord, simple, 10)),
		"a simple commit (generation -1) into a group with members is UNKNOWN_MEMBER_ID")

	lv := kmsg.NewPtrLeaveGroupRequest()
	lv.SetVersion(5)
	lv.Group = "cycle"
	m := kmsg.NewLeaveGroupRequestMember()
	m.MemberID = mid
	lv.Members = append(lv.Members, m, kmsg.NewLeaveGroupRequestMember())
	lr := xask[*kmsg.LeaveGroupResponse](t, w, c, coord, lv, 10)
	require.Equal(t, []int16{0, 0, 25}, []int16{lr.ErrorCode, lr.Members[0].ErrorCode, lr.Members[1].ErrorCode})
	d = xask[*kmsg.DescribeGroupsResponse](t, w, c, coord, dg, 10).Groups[0]
	require.Equal(t, "Empty", d.State)
	require.Empty(t, d.Members)
	require.Equal(t, map[int32]int16{1: 0}, commitCodes(xask[*kmsg.OffsetCommitResponse](t, w, c, coord, simple, 2000)),
		"a simple commit into the Empty group is stored")
	require.Equal(t, map[string]map[int32]int64{"cycle": {0: 2, 1: 1, 3: 0}}, fetchOffsets(t, w, c, coord, "cycle"))
	require.Empty(t, w.InternalErrors())
}

// joinNew sends a new dynamic member's two JoinGroups (the first answered
// MEMBER_ID_REQUIRED) and returns the id of the second, parked one.
func joinNew(t *testing.T, w *cluster.World, c xclient, broker int32, groupID string, protocols map[string][]byte, order ...string) uint64 {
	t.Helper()
	first := xask[*kmsg.JoinGroupResponse](t, w, c, broker, joinReq(groupID, "", "", "consumer", protocols, order...), 10)
	require.Equal(t, int16(79), first.ErrorCode, "MEMBER_ID_REQUIRED")
	return c.send(t, w, broker, joinReq(groupID, first.MemberID, "", "consumer", protocols, order...))
}

func groupInfo(w *cluster.World, name string) cluster.GroupInfo {
	for _, g := range w.State().Groups {
		if g.Name == name {
			return g
		}
	}
	return cluster.GroupInfo{}
}

func refs(topic string, ps ...int32) []cluster.PartitionRef {
	out := []cluster.PartitionRef{}
	for _, p := range ps {
		out = append(out, cluster.PartitionRef{Topic: topic, Partition: p})
	}
	return out
}

// TestExternalAndSimulatedMembersShareAGroup: two external members and one
// of the world's consumers in one group, each kind as the leader. A
// simulated leader reads the external members' ConsumerProtocol bytes
// and its range assignment reaches them as ConsumerProtocolAssignment
// bytes; an external leader gets the simulated member's subscription as
// bytes it decodes, and the partitions it assigns in bytes are what the
// simulated member reads.
func TestExternalAndSimulatedMembersShareAGroup(t *testing.T) {
	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	for _, simLeads := range []bool{true, false} {
		t.Run(fmt.Sprintf("simulated leader %v", simLeads), func(t *testing.T) {
			w := xgroupWorld(t, 7)
			x1, x2 := xclient{1, "ext-a", "10.0.0.7:4000"}, xclient{2, "ext-b", "10.0.0.8:4000"}
			coord, _ := findCoordinator(t, w, x1, "mix", 5000)
			sim := cluster.ConsumerConfig{Name: "sim", Group: "mix", Topics: []string{"g"}, Assignors: []string{"range"}, AutoOffsetReset: "earliest"}
			var j1 uint64
			if simLeads {
				require.NoError(t, w.AddConsumer(sim))
				require.NoError(t, w.RunFor(300))
				j1 = joinNew(t, w, x1, coord, "mix", meta, "range")
			} else {
				j1 = joinNew(t, w, x1, coord, "mix", meta, "range")
				require.NoError(t, w.RunFor(300))
				require.NoError(t, w.AddConsumer(sim))
				require.NoError(t, w.RunFor(300))
			}
			j2 := joinNew(t, w, x2, coord, "mix", meta, "range")
			a := answers{}
			a.await(t, w, 10_000, j1, j2)
			r1, r2 := a[j1].(*kmsg.JoinGroupResponse), a[j2].(*kmsg.JoinGroupResponse)
			require.Equal(t, []int16{0, 0}, []int16{r1.ErrorCode, r2.ErrorCode})
			require.Equal(t, r1.Generation, r2.Generation)
			gi := groupInfo(w, "mix")
			require.Len(t, gi.Members, 3)
			var simID string
			for _, m := range gi.Members {
				if m.ClientID == "sim" {
					simID = m.ID
				}
			}
			require.NotEmpty(t, simID)

			want := map[string][]cluster.PartitionRef{}
			var s1, s2 uint64
			if simLeads {
				require.Equal(t, simID, r1.LeaderID)
				require.Empty(t, r1.Members, "a follower gets no subscriptions")
				s1 = x1.send(t, w, coord, syncReq("mix", r1.MemberID, r1.Generation, "consumer", "range", nil))
				s2 = x2.send(t, w, coord, syncReq("mix", r2.MemberID, r2.Generation, "consumer", "range", nil))
			} else {
				require.Equal(t, r1.MemberID, r1.LeaderID)
				require.Len(t, r1.Members, 3)
				for _, m := range r1.Members {
					md := kmsg.NewConsumerMemberMetadata()
					require.NoError(t, md.ReadFrom(m.ProtocolMetadata), "member %s's metadata", m.MemberID)
					require.Equal(t, []string{"g"}, md.Topics, "member %s subscribes", m.MemberID)
				}
				plan := map[string][]byte{r1.MemberID: assignmentBytes("g", 3), r2.MemberID: assignmentBytes("g", 0), simID: assignmentBytes("g", 1, 2)}
				want = map[string][]cluster.PartitionRef{r1.MemberID: refs("g", 3), r2.MemberID: refs("g", 0), simID: refs("g", 1, 2)}
				s1 = x1.send(t, w, coord, syncReq("mix", r1.MemberID, r1.Generation, "consumer", "range", plan))
				s2 = x2.send(t, w, coord, syncReq("mix", r2.MemberID, r2.Generation, "consumer", "range", nil))
			}
			a.await(t, w, 10_000, s1, s2)
			got := map[string][]int32{}
			for _, s := range []*kmsg.SyncGroupResponse{a[s1].(*kmsg.SyncGroupResponse), a[s2].(*kmsg.SyncGroupResponse)} {
				require.Equal(t, int16(0), s.ErrorCode)
				got[fmt.Sprint(len(got))] = assigned(t, s.MemberAssignment)["g"]
			}
			require.NoError(t, w.RunFor(1000))
			gi = groupInfo(w, "mix")
			require.Equal(t, "Stable", gi.State)
			seen := map[int32]string{}
			for _, m := range gi.Members {
				if !simLeads {
					if diff := cmp.Diff(want[m.ID], m.Assignment); diff != "" {
						t.Errorf("member %s's assignment (-want +got):\n%s", m.ID, diff)
					}
				}
				require.NotEmpty(t, m.Assignment, "member %s", m.ID)
				for _, p := range m.Assignment {
					require.Empty(t, seen[p.Partition], "partition %d assigned to %s and %s", p.Partition, seen[p.Partition], m.ID)
					seen[p.Partition] = m.ID
				}
				if m.ID == simID {
					require.Equal(t, m.Assignment, m.Partitions, "the simulated member reads what it was assigned")
				}
			}
			require.Len(t, seen, 4)
			byID := map[string][]int32{}
			for _, m := range gi.Members {
				for _, p := range m.Assignment {
					byID[m.ID] = append(byID[m.ID], p.Partition)
				}
			}
			require.Equal(t, byID[r1.MemberID], got["0"], "ext-a's bytes")
			require.Equal(t, byID[r2.MemberID], got["1"], "ext-b's bytes")

			// DescribeGroups gives every member's subscription and
			// assignment as Kafka's consumer protocol bytes.
			dg := kmsg.NewPtrDescribeGroupsRequest()
			dg.SetVersion(5)
			dg.Groups = []string{"mix"}
			d := xask[*kmsg.DescribeGroupsResponse](t, w, x1, coord, dg, 10).Groups[0]
			require.Equal(t, []any{"Stable", "consumer", "range", 3}, []any{d.State, d.ProtocolType, d.Protocol, len(d.Members)})
			for _, m := range d.Members {
				md := kmsg.NewConsumerMemberMetadata()
				require.NoError(t, md.ReadFrom(m.ProtocolMetadata), "member %s", m.MemberID)
				require.Equal(t, []string{"g"}, md.Topics, "member %s", m.MemberID)
				require.Equal(t, byID[m.MemberID], assigned(t, m.MemberAssignment)["g"], "member %s", m.MemberID)
				if m.MemberID == simID {
					require.Equal(t, []any{"sim", "/10.0.0.100"}, []any{m.ClientID, m.ClientHost})
				}
			}
			require.Empty(t, w.InternalErrors())
		})
	}
}

// stableGroup makes members (new, dynamic, "range") a Stable group
// with the first as leader assigning partition i of g to member i mod n;
// it returns their member ids and the generation.
func stableGroup(t *testing.T, w *cluster.World, coord int32, groupID string, members ...xclient) ([]string, int32) {
	t.Helper()
	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	var joins []uint64
	for _, c := range members {
		joins = append(joins, joinNew(t, w, c, coord, groupID, meta, "range"))
	}
	a := answers{}
	a.await(t, w, 10_000, joins...)
	var ids []string
	var gen int32
	for _, j := range joins {
		r := a[j].(*kmsg.JoinGroupResponse)
		require.Equal(t, int16(0), r.ErrorCode)
		ids, gen = append(ids, r.MemberID), r.Generation
	}
	plan := map[string][]byte{}
	for i, id := range ids {
		var ps []int32
		for p := int32(i); p < 4; p += int32(len(ids)) {
			ps = append(ps, p)
		}
		plan[id] = assignmentBytes("g", ps...)
	}
	var syncs []uint64
	for i, c := range members {
		var mine map[string][]byte
		if i == 0 {
			mine = plan
		}
		syncs = append(syncs, c.send(t, w, coord, syncReq(groupID, ids[i], gen, "consumer", "range", mine)))
	}
	a.await(t, w, 10_000, syncs...)
	for i, s := range syncs {
		r := a[s].(*kmsg.SyncGroupResponse)
		require.Equal(t, int16(0), r.ErrorCode)
		require.Equal(t, plan[ids[i]], r.MemberAssignment)
	}
	return ids, gen
}

// TestExternalCoordinatorFailoverMidRebalance: the coordinator's broker
// is killed while a third member's JoinGroup waits for the others to
// rejoin. The parked JoinGroups are never answered (the connection is
// gone); FindCoordinator names another broker once the group's offsets
// partition has a new leader; that coordinator loads the group as it was
// last stored (Stable, generation 1, the two members that synced: the
// third member's join was never stored), so a member heartbeating with
// its member id and generation carries on, and the offsets committed
// before the failure are there.
func TestExternalCoordinatorFailoverMidRebalance(t *testing.T) {
	w := xgroupWorld(t, 11)
	x1, x2, x3 := xclient{1, "ext-a", "10.0.0.1:1"}, xclient{2, "ext-b", "10.0.0.2:1"}, xclient{3, "ext-c", "10.0.0.3:1"}
	coord, _ := findCoordinator(t, w, x1, "fo", 5000)
	ids, gen := stableGroup(t, w, coord, "fo", x1, x2)
	cr := xask[*kmsg.OffsetCommitResponse](t, w, x1, coord, commitReq("fo", ids[0], gen, "g", map[int32]int64{0: 0, 2: 0}), 2000)
	require.Equal(t, map[int32]int16{0: 0, 2: 0}, commitCodes(cr))

	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	j3 := joinNew(t, w, x3, coord, "fo", meta, "range")
	require.Equal(t, int16(27), xask[*kmsg.HeartbeatResponse](t, w, x1, coord, heartbeatReq("fo", ids[0], gen), 10).ErrorCode, "REBALANCE_IN_PROGRESS")
	j1 := x1.send(t, w, coord, joinReq("fo", ids[0], "", "consumer", meta, "range"))
	require.Equal(t, "PreparingRebalance", groupInfo(w, "fo").State)

	require.NoError(t, w.Kill(coord))
	require.NoError(t, w.RunFor(2000))
	for _, x := range w.ExternalAnswers() {
		require.NotContains(t, []uint64{j1, j3}, x.ID, "a JoinGroup parked at the killed coordinator was answered")
	}
	next, codes := findCoordinator(t, w, x1, "fo", 30_000)
	require.NotEqual(t, coord, next)
	t.Logf("%d FindCoordinator answers before the new leader: %v", len(codes), slices.Compact(codes))
	require.Equal(t, int16(0), xask[*kmsg.HeartbeatResponse](t, w, x2, next, heartbeatReq("fo", ids[1], gen), 10).ErrorCode, "NONE: the loaded member carries on")
	require.Equal(t, map[string]map[int32]int64{"fo": {0: 0, 2: 0}}, fetchOffsets(t, w, x1, next, "fo"))
	gi := groupInfo(w, "fo")
	require.Equal(t, []any{"Stable", next, 2, gen}, []any{gi.State, gi.Coordinator, len(gi.Members), gi.Generation})
	require.Empty(t, w.InternalErrors())
}

// TestExternalStaticMemberRejoins: a static member (group.instance.id,
// KIP-345) that restarts joins without a member id and gets the current
// generation back at once with a new member id, told to skip the
// assignment as the leader (KIP-814, JoinGroup v9); its old member id is
// FENCED_INSTANCE_ID; its SyncGroup returns the assignment it had; the
// other member never sees a rebalance.
func TestExternalStaticMemberRejoins(t *testing.T) {
	w := xgroupWorld(t, 13)
	xs, x2 := xclient{1, "static", "10.0.0.1:1"}, xclient{2, "dynamic", "10.0.0.2:1"}
	coord, _ := findCoordinator(t, w, xs, "st", 5000)
	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	js := xs.send(t, w, coord, joinReq("st", "", "i1", "consumer", meta, "range"))
	require.NoError(t, w.RunFor(100))
	j2 := joinNew(t, w, x2, coord, "st", meta, "range")
	a := answers{}
	a.await(t, w, 10_000, js, j2)
	rs, r2 := a[js].(*kmsg.JoinGroupResponse), a[j2].(*kmsg.JoinGroupResponse)
	require.Equal(t, []int16{0, 0}, []int16{rs.ErrorCode, r2.ErrorCode})
	require.Equal(t, rs.MemberID, rs.LeaderID)
	require.Len(t, rs.Members, 2)
	gen := rs.Generation
	plan := map[string][]byte{rs.MemberID: assignmentBytes("g", 0, 1), r2.MemberID: assignmentBytes("g", 2, 3)}
	ss := xs.send(t, w, coord, syncReq("st", rs.MemberID, gen, "consumer", "range", plan))
	s2 := x2.send(t, w, coord, syncReq("st", r2.MemberID, gen, "consumer", "range", nil))
	a.await(t, w, 10_000, ss, s2)

	again := xask[*kmsg.JoinGroupResponse](t, w, xs, coord, joinReq("st", "", "i1", "consumer", meta, "range"), 10)
	require.Equal(t, int16(0), again.ErrorCode)
	require.Equal(t, []any{gen, again.MemberID, true}, []any{again.Generation, again.LeaderID, again.SkipAssignment})
	require.NotEqual(t, rs.MemberID, again.MemberID)
	hb := heartbeatReq("st", rs.MemberID, gen)
	hb.InstanceID = kmsg.StringPtr("i1")
	require.Equal(t, int16(82), xask[*kmsg.HeartbeatResponse](t, w, xs, coord, hb, 10).ErrorCode, "FENCED_INSTANCE_ID")
	s := xask[*kmsg.SyncGroupResponse](t, w, xs, coord, syncReq("st", again.MemberID, gen, "consumer", "range", nil), 10)
	require.Equal(t, int16(0), s.ErrorCode)
	require.Equal(t, plan[rs.MemberID], s.MemberAssignment)
	require.Equal(t, int16(0), xask[*kmsg.HeartbeatResponse](t, w, x2, coord, heartbeatReq("st", r2.MemberID, gen), 10).ErrorCode)
	gi := groupInfo(w, "st")
	require.Equal(t, []any{"Stable", gen}, []any{gi.State, gi.Generation})
	require.Empty(t, w.InternalErrors())
}

// TestExternalGroupOlderVersionsAndOpaqueProtocols: a group of protocol
// type "connect" (not a consumer) spoken at older versions: FindCoordinator
// v1 (one key, error message "NONE"), JoinGroup v3 (no MEMBER_ID_REQUIRED
// before v4), the leader's opaque bytes handed back untouched by SyncGroup
// v2, OffsetCommit v2 and OffsetFetch v1 and v5, DescribeGroups v0 and
// ListGroups v0, LeaveGroup v1.
func TestExternalGroupOlderVersionsAndOpaqueProtocols(t *testing.T) {
	w := xgroupWorld(t, 17)
	x1, x2 := xclient{1, "worker-1", "10.0.0.1:1"}, xclient{2, "worker-2", "10.0.0.2:1"}
	findCoordinator(t, w, x1, "connect-cluster", 5000)
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(1)
	fc.CoordinatorKey = "connect-cluster"
	f := xask[*kmsg.FindCoordinatorResponse](t, w, x1, 2, fc, 10)
	require.Equal(t, []any{int16(0), "NONE"}, []any{f.ErrorCode, *f.ErrorMessage})
	coord := f.NodeID

	join := func(c xclient, meta []byte) uint64 {
		req := joinReq("connect-cluster", "", "", "connect", map[string][]byte{"sessioned": meta}, "sessioned")
		req.SetVersion(3)
		return c.send(t, w, coord, req)
	}
	j1, j2 := join(x1, []byte("worker one")), join(x2, []byte("worker two"))
	a := answers{}
	a.await(t, w, 10_000, j1, j2)
	r1, r2 := a[j1].(*kmsg.JoinGroupResponse), a[j2].(*kmsg.JoinGroupResponse)
	require.Equal(t, []int16{0, 0}, []int16{r1.ErrorCode, r2.ErrorCode}, "JoinGroup v3 joins at once")
	require.Equal(t, r1.MemberID, r1.LeaderID)
	metas := map[string]string{}
	for _, m := range r1.Members {
		metas[m.MemberID] = string(m.ProtocolMetadata)
	}
	require.Equal(t, map[string]string{r1.MemberID: "worker one", r2.MemberID: "worker two"}, metas)

	sync := func(c xclient, r *kmsg.JoinGroupResponse, plan map[string][]byte) uint64 {
		req := kmsg.NewPtrSyncGroupRequest()
		req.SetVersion(2)
		req.Group, req.MemberID, req.Generation = "connect-cluster", r.MemberID, r.Generation
		for m, b := range plan {
			ga := kmsg.NewSyncGroupRequestGroupAssignment()
			ga.MemberID, ga.MemberAssignment = m, b
			req.GroupAssignment = append(req.GroupAssignment, ga)
		}
		return c.send(t, w, coord, req)
	}
	s1 := sync(x1, r1, map[string][]byte{r1.MemberID: []byte("tasks 0,1"), r2.MemberID: []byte("tasks 2")})
	s2 := sync(x2, r2, nil)
	a.await(t, w, 10_000, s1, s2)
	require.Equal(t, "tasks 0,1", string(a[s1].(*kmsg.SyncGroupResponse).MemberAssignment))
	require.Equal(t, "tasks 2", string(a[s2].(*kmsg.SyncGroupResponse).MemberAssignment))

	oc := commitReq("connect-cluster", r1.MemberID, r1.Generation, "g", map[int32]int64{1: 42})
	oc.SetVersion(2)
	require.Equal(t, map[int32]int16{1: 0}, commitCodes(xask[*kmsg.OffsetCommitResponse](t, w, x1, coord, oc, 2000)))
	for _, v := range []int16{1, 5} {
		of := kmsg.NewPtrOffsetFetchRequest()
		of.SetVersion(v)
		of.Group = "connect-cluster"
		ot := kmsg.NewOffsetFetchRequestTopic()
		ot.Topic, ot.Partitions = "g", []int32{0, 1}
		of.Topics = append(of.Topics, ot)
		r := xask[*kmsg.OffsetFetchResponse](t, w, x1, coord, of, 10)
		require.Len(t, r.Topics, 1)
		got := map[int32]int64{}
		for _, p := range r.Topics[0].Partitions {
			got[p.Partition] = p.Offset
		}
		require.Equal(t, map[int32]int64{0: -1, 1: 42}, got, "OffsetFetch v%d", v)
	}

	dg := kmsg.NewPtrDescribeGroupsRequest()
	dg.Groups = []string{"connect-cluster"}
	d := xask[*kmsg.DescribeGroupsResponse](t, w, x1, coord, dg, 10).Groups[0]
	require.Equal(t, []any{"Stable", "connect", "sessioned", 2}, []any{d.State, d.ProtocolType, d.Protocol, len(d.Members)})
	for _, m := range d.Members {
		require.Equal(t, metas[m.MemberID], string(m.ProtocolMetadata))
	}
	l := xask[*kmsg.ListGroupsResponse](t, w, x1, coord, kmsg.NewPtrListGroupsRequest(), 10)
	require.Contains(t, l.Groups, kmsg.ListGroupsResponseGroup{Group: "connect-cluster", ProtocolType: "connect"})

	lv := kmsg.NewPtrLeaveGroupRequest()
	lv.SetVersion(1)
	lv.Group, lv.MemberID = "connect-cluster", r2.MemberID
	require.Equal(t, int16(0), xask[*kmsg.LeaveGroupResponse](t, w, x2, coord, lv, 10).ErrorCode)
	require.Equal(t, int16(27), xask[*kmsg.HeartbeatResponse](t, w, x1, coord, heartbeatReq("connect-cluster", r1.MemberID, r1.Generation), 10).ErrorCode, "REBALANCE_IN_PROGRESS")
	require.Equal(t, int16(25), xask[*kmsg.LeaveGroupResponse](t, w, x2, coord, lv, 10).ErrorCode, "UNKNOWN_MEMBER_ID")
	require.Empty(t, w.InternalErrors())
}

// TestExternalCoordinatorStoppedWhileAJoinWaits: a controlled shutdown of
// the coordinator's broker while a JoinGroup waits: the join is answered
// NOT_COORDINATOR if the broker gives up the group's offsets partition
// first (GroupCoordinator.onGroupUnloaded), never if the process ends
// first; either way the member finds the new coordinator, which loaded
// the group at its stored generation, and new members joining there start
// the next generation.
func TestExternalCoordinatorStoppedWhileAJoinWaits(t *testing.T) {
	w := xgroupWorld(t, 19)
	x1, x2 := xclient{1, "ext-a", "10.0.0.1:1"}, xclient{2, "ext-b", "10.0.0.2:1"}
	coord, _ := findCoordinator(t, w, x1, "stop", 5000)
	ids, gen := stableGroup(t, w, coord, "stop", x1, x2)
	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	j1 := x1.send(t, w, coord, joinReq("stop", ids[0], "", "consumer", meta, "range"))
	require.Equal(t, "PreparingRebalance", groupInfo(w, "stop").State)
	require.NoError(t, w.Stop(coord))
	require.NoError(t, w.RunFor(3000))
	for _, x := range w.ExternalAnswers() {
		if x.ID == j1 {
			require.Equal(t, int16(16), x.Response.(*kmsg.JoinGroupResponse).ErrorCode, "NOT_COORDINATOR")
		}
	}
	next, _ := findCoordinator(t, w, x1, "stop", 30_000)
	require.NotEqual(t, coord, next)
	ids2, gen2 := stableGroup(t, w, next, "stop", x1, x2)
	require.Len(t, ids2, 2)
	require.Equal(t, gen+1, gen2, "the loaded group's next generation (generation %d before)", gen)
	require.Empty(t, w.InternalErrors())
}

// TestExternalCoordinatorFencedWhileAJoinWaits: the coordinator's broker
// keeps running but is cut off from the controller, which moves the
// leadership of the group's offsets partition away: the JoinGroup
// waiting there is answered NOT_COORDINATOR (GroupCoordinator.onGroupUnloaded),
// a heartbeat to it is NOT_COORDINATOR, and FindCoordinator names the new
// leader.
func TestExternalCoordinatorFencedWhileAJoinWaits(t *testing.T) {
	w := xgroupWorld(t, 23)
	x1, x2 := xclient{1, "ext-a", "10.0.0.1:1"}, xclient{2, "ext-b", "10.0.0.2:1"}
	coord, _ := findCoordinator(t, w, x1, "fence", 5000)
	ids, gen := stableGroup(t, w, coord, "fence", x1, x2)
	meta := map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}
	j1 := x1.send(t, w, coord, joinReq("fence", ids[0], "", "consumer", meta, "range"))
	var others []int32
	for b := int32(1); b <= 3; b++ {
		if b != coord {
			others = append(others, b)
		}
	}
	require.NoError(t, w.Partition([]int32{coord}, append([]int32{cluster.ControllerID}, others...)))
	a := answers{}
	a.await(t, w, 30_000, j1)
	require.Equal(t, int16(16), a[j1].(*kmsg.JoinGroupResponse).ErrorCode, "NOT_COORDINATOR")
	require.Equal(t, int16(16), xask[*kmsg.HeartbeatResponse](t, w, x2, coord, heartbeatReq("fence", ids[1], gen), 10).ErrorCode, "NOT_COORDINATOR")
	p, _ := group.OffsetsPartition("fence", cluster.DefaultOffsetsTopicNumPartitions)
	next, _ := findCoordinator(t, w, x1, "fence", 10_000)
	require.Equal(t, w.PartitionLeader(cluster.OffsetsTopic, p), next)
	require.NotEqual(t, coord, next)
	require.Empty(t, w.InternalErrors())
}

// TestExternalFindsTransactionCoordinator: a transactional producer's
// FindCoordinator for its transactional.id creates __transaction_state
// (compacted, min.insync.replicas 2) and is COORDINATOR_NOT_AVAILABLE
// until a leader of the id's partition loaded it; then it names that
// leader, whose InitProducerId gives the id a producer id at epoch 0, and
// the next InitProducerId bumps the epoch.
func TestExternalFindsTransactionCoordinator(t *testing.T) {
	w := xgroupWorld(t, 5)
	c := xclient{1, "txn-producer", "10.0.0.1:4000"}
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.SetVersion(4)
	req.CoordinatorType, req.CoordinatorKeys = 1, []string{"tx-1"}
	var node int32
	for waited := 0; ; waited += 100 {
		r := xask[*kmsg.FindCoordinatorResponse](t, w, c, 1, req, 10)
		require.Len(t, r.Coordinators, 1)
		if r.Coordinators[0].ErrorCode == 0 {
			node = r.Coordinators[0].NodeID
			break
		}
		require.Equal(t, int16(15), r.Coordinators[0].ErrorCode)
		require.Less(t, waited, 10000, "no transaction coordinator")
		require.NoError(t, w.RunFor(100))
	}
	tp := metadata.TxnStatePartition("tx-1", cluster.DefaultOffsetsTopicNumPartitions)
	require.Equal(t, w.PartitionLeader(tp.Topic, tp.Partition), node)
	init := kmsg.NewPtrInitProducerIDRequest()
	init.SetVersion(4)
	init.TransactionalID, init.TransactionTimeoutMillis, init.ProducerID, init.ProducerEpoch = kmsg.StringPtr("tx-1"), 60000, -1, -1
	first := xask[*kmsg.InitProducerIDResponse](t, w, c, node, init, 100)
	require.Equal(t, [2]int64{0, 0}, [2]int64{int64(first.ErrorCode), int64(first.ProducerEpoch)})
	again := xask[*kmsg.InitProducerIDResponse](t, w, c, node, init, 100)
	require.Equal(t, [3]int64{0, first.ProducerID, 1}, [3]int64{int64(again.ErrorCode), again.ProducerID, int64(again.ProducerEpoch)})
	other := xask[*kmsg.InitProducerIDResponse](t, w, c, node%3+1, init, 100)
	require.Equal(t, int16(16), other.ErrorCode, "NOT_COORDINATOR at another broker")
}
