package cluster_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// TestOffsetsOnlyGroupsAreGroups: a client that assigns itself partitions
// and commits offsets without joining (Flink's and Spark's Kafka sources:
// OffsetCommit with generation -1 and no member) makes a group Kafka
// lists and describes as Empty, its offsets and lag shown; the world's
// groups (kafka-consumer-groups --list and --describe) include it, as the
// brokers' ListGroups does.
func TestOffsetsOnlyGroupsAreGroups(t *testing.T) {
	w := extWorld(t)
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(3)
	fc.CoordinatorKey = "flink-source"
	var coord *kmsg.FindCoordinatorResponse
	for i := 0; ; i++ {
		coord = ask[*kmsg.FindCoordinatorResponse](t, w, 1, fc, 5000)
		if coord.ErrorCode == 0 {
			break
		}
		require.Less(t, i, 10, "no coordinator")
		require.NoError(t, w.RunFor(1000))
	}
	require.Equal(t, int16(0), produced(ask[*kmsg.ProduceResponse](t, w, 1, produceReq(-1, clientBatch(0)), 2000)).Code)
	oc := kmsg.NewPtrOffsetCommitRequest()
	oc.SetVersion(8)
	oc.Group, oc.Generation = "flink-source", -1
	ot := kmsg.NewOffsetCommitRequestTopic()
	ot.Topic = "t"
	op := kmsg.NewOffsetCommitRequestTopicPartition()
	op.Offset = 1
	ot.Partitions = append(ot.Partitions, op)
	oc.Topics = append(oc.Topics, ot)
	require.Zero(t, ask[*kmsg.OffsetCommitResponse](t, w, coord.NodeID, oc, 5000).Topics[0].Partitions[0].ErrorCode)
	require.NoError(t, w.RunFor(500))

	var got *cluster.GroupInfo
	for _, g := range w.Groups() {
		if g.Name == "flink-source" {
			got = &g
		}
	}
	require.NotNil(t, got, "the offsets-only group is listed")
	require.Equal(t, "Empty", got.State)
	require.Empty(t, got.Members)
	type off struct {
		Topic                        string
		Partition                    int32
		Committed, LogEndOffset, Lag int64
	}
	var offs []off
	for _, o := range got.Offsets {
		offs = append(offs, off{o.Topic, o.Partition, o.Committed, o.LogEndOffset, o.Lag})
	}
	if diff := cmp.Diff([]off{{"t", 0, 1, 3, 2}}, offs); diff != "" {
		t.Errorf("offsets (-want +got):\n%s", diff)
	}
	lg := kmsg.NewPtrListGroupsRequest()
	lg.SetVersion(4)
	var listed []string
	for _, g := range ask[*kmsg.ListGroupsResponse](t, w, coord.NodeID, lg, 5000).Groups {
		listed = append(listed, g.Group+" "+g.GroupState)
	}
	require.Contains(t, listed, "flink-source Empty")
}

// TestTransactionalOffsetsGroupMovesWithItsPartition: a copier's group is
// known only by the offsets its transactions committed (TxnOffsetCommit,
// no JoinGroup). When the broker leading the group's offsets partition
// stops, the new leader, which no group request has reached, is its
// coordinator at once: the world's groups (kafka-consumer-groups --list
// and --describe) show the group there, Empty, with the offset the last
// committed transaction committed, and the timeline's world rebuilt at
// that moment shows the same.
func TestTransactionalOffsetsGroupMovesWithItsPartition(t *testing.T) {
	w := copierWorld(t)
	for i := range 3 {
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "src", Value: fmt.Sprintf("a%d", i), Partition: -1}))
	}
	require.NoError(t, w.RunFor(5000))
	want := []string{"cp-g Empty in-0 committed 3"}
	before := copierGroup(w)
	require.Len(t, before, 2, "the copier's group and its coordinator, before the stop")
	if diff := cmp.Diff(want, before[:1]); diff != "" {
		t.Fatalf("before the stop (-want +got):\n%s", diff)
	}

	require.NoError(t, w.Stop(copierCoordinator(t, w)))
	require.NoError(t, w.RunFor(3000))
	got := copierGroup(w)
	require.Len(t, got, 2, "the copier's group is listed after the stop: %v", got)
	require.NotEqual(t, before[1], got[1], "the group's coordinator moved")
	if diff := cmp.Diff(want, got[:1]); diff != "" {
		t.Errorf("after the stop (-want +got):\n%s", diff)
	}
	past, err := w.AtTime(w.NowMs())
	require.NoError(t, err)
	if diff := cmp.Diff(got, copierGroup(past)); diff != "" {
		t.Errorf("the timeline's world differs from the live one (-live +rebuilt):\n%s", diff)
	}
}

// copierGroup describes copierWorld's group cp-g as the world lists it:
// its state and offsets, then its coordinator; nil when it is not listed.
func copierGroup(w *cluster.World) []string {
	for _, g := range w.Groups() {
		if g.Name != "cp-g" {
			continue
		}
		s := g.Name + " " + g.State
		for _, o := range g.Offsets {
			s += fmt.Sprintf(" %s-%d committed %d", o.Topic, o.Partition, o.Committed)
		}
		return []string{s, fmt.Sprintf("coordinator %d", g.Coordinator)}
	}
	return nil
}

// copierCoordinator is the broker coordinating copierWorld's group.
func copierCoordinator(t *testing.T, w *cluster.World) int32 {
	t.Helper()
	for _, g := range w.Groups() {
		if g.Name == "cp-g" && g.Coordinator > 0 {
			return g.Coordinator
		}
	}
	t.Fatal("cp-g has no coordinator")
	return 0
}
