package cluster_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// xgroupWorld is a three-broker modern world with topic g of four
// partitions (replicas on every broker), quiet.
func xgroupWorld(t *testing.T, seed uint64) *cluster.World {
	t.Helper()
	w, err := cluster.New(cluster.Config{Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
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
	require.Empty(t, w.InternalErrors())
}
