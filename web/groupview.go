package web

import (
	"cmp"
	"slices"

	"github.com/kafkalive/kafkalive/cluster"
)

// MaxOffsetsShown bounds the committed offsets an update lists of a group,
// and MaxMemberPartitionsShown the partitions it lists of a member: a
// group that reads a topic of two thousand partitions would make every
// update hundreds of kilobytes (kafka-consumer-groups --describe in the
// terminal lists them all).
const (
	MaxOffsetsShown          = 20
	MaxMemberPartitionsShown = 20
)

// GroupView is one consumer group as the page shows it: the cluster's
// GroupInfo, its long lists cut. A group with more committed offsets than
// MaxOffsetsShown lists those that lag the most; OffsetsHidden counts the
// others and HiddenLag sums their lag.
type GroupView struct {
	Name        string `json:"name"`
	State       string `json:"state"`
	Generation  int32  `json:"generation"`
	Protocol    string `json:"protocol"`
	Assignor    string `json:"assignor,omitempty"`
	Coordinator int32  `json:"coordinator"`
	Leader      string `json:"leader,omitempty"`
	// GroupProtocol and AssignmentEpoch are cluster.GroupInfo's: "consumer"
	// and the target assignment epoch for a group of the consumer group
	// protocol (KIP-848).
	GroupProtocol   string `json:"group_protocol,omitempty"`
	AssignmentEpoch int32  `json:"assignment_epoch,omitempty"`
	// V is the group's version in the update stream.
	V             uint64       `json:"v,omitempty"`
	Members       []MemberView `json:"members"`
	Offsets       []OffsetView `json:"offsets"`
	OffsetsHidden int          `json:"offsets_hidden,omitempty"`
	HiddenLag     int64        `json:"hidden_lag,omitempty"`
	// LagTimes and Lags are the group's lag over time on the page of an
	// observed cluster: the times of the samples up to the one shown
	// (milliseconds on the timeline, at most MaxLagPoints) and the
	// group's total lag at each (NotObserved where a poll could not tell
	// it). Each offset shown has its own (OffsetView.Lags).
	LagTimes []int64 `json:"lag_t,omitempty"`
	Lags     []int64 `json:"lags,omitempty"`
}

// MaxLagPoints bounds the samples of a lag drawn over time.
const MaxLagPoints = 120

// MemberView is one member of a group: the partitions it reads, at most
// MaxMemberPartitionsShown of them (PartitionsHidden counts the others),
// and for a consumer-protocol member its epoch and the partitions it waits
// for and must give up, as many at most.
type MemberView struct {
	ID         string                 `json:"id"`
	ClientID   string                 `json:"client_id"`
	InstanceID string                 `json:"instance_id,omitempty"`
	Host       string                 `json:"host"`
	Partitions []cluster.PartitionRef `json:"partitions"`
	// PartitionsHidden counts the partitions it reads beyond those
	// listed.
	PartitionsHidden int `json:"partitions_hidden,omitempty"`
	// Idle says why it reads nothing (cluster.MemberInfo.Idle).
	Idle string `json:"idle,omitempty"`
	// MemberEpoch, MemberState, Pending and Revoking are
	// cluster.MemberInfo's (a consumer-protocol member's), Pending and
	// Revoking cut as Partitions are.
	MemberEpoch    int32                  `json:"member_epoch,omitempty"`
	MemberState    string                 `json:"member_state,omitempty"`
	Pending        []cluster.PartitionRef `json:"pending,omitempty"`
	PendingHidden  int                    `json:"pending_hidden,omitempty"`
	Revoking       []cluster.PartitionRef `json:"revoking,omitempty"`
	RevokingHidden int                    `json:"revoking_hidden,omitempty"`
}

// cutRefs is ps, at most MaxMemberPartitionsShown of them, and how many
// more there are.
func cutRefs(ps []cluster.PartitionRef) ([]cluster.PartitionRef, int) {
	if len(ps) > MaxMemberPartitionsShown {
		return ps[:MaxMemberPartitionsShown], len(ps) - MaxMemberPartitionsShown
	}
	return ps, 0
}

// OffsetView is a group's committed offset of one partition, and the
// partition's log start offset (-1: unknown), below which retention
// deleted records the group never read.
type OffsetView struct {
	cluster.OffsetInfo
	LogStart int64 `json:"lso"`
	// Lags is the partition's lag at each of the group's LagTimes (an
	// observed cluster's page only).
	Lags []int64 `json:"lags,omitempty"`
}

// groupView cuts g's lists for the page; logStart gives a partition's
// log start offset (false: unknown).
func groupView(g cluster.GroupInfo, logStart func(topic string, partition int32) (int64, bool)) GroupView {
	gv := GroupView{Name: g.Name, State: g.State, Generation: g.Generation, Protocol: g.Protocol, Assignor: g.Assignor,
		Coordinator: g.Coordinator, Leader: g.Leader, GroupProtocol: g.GroupProtocol, AssignmentEpoch: g.AssignmentEpoch,
		Members: []MemberView{}, Offsets: []OffsetView{}}
	for _, m := range g.Members {
		mv := MemberView{ID: m.ID, ClientID: m.ClientID, InstanceID: m.InstanceID, Host: m.Host, Idle: m.Idle,
			MemberEpoch: m.MemberEpoch, MemberState: m.MemberState}
		mv.Partitions, mv.PartitionsHidden = cutRefs(m.Partitions)
		mv.Pending, mv.PendingHidden = cutRefs(m.Pending)
		mv.Revoking, mv.RevokingHidden = cutRefs(m.Revoking)
		if mv.Partitions == nil {
			mv.Partitions = []cluster.PartitionRef{}
		}
		gv.Members = append(gv.Members, mv)
	}
	shown := g.Offsets
	if len(shown) > MaxOffsetsShown {
		// the offsets that lag the most, listed in the cluster's order
		idx := make([]int, len(shown))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(shown[b].Lag, shown[a].Lag) })
		for _, i := range idx[MaxOffsetsShown:] {
			gv.OffsetsHidden++
			gv.HiddenLag += max(shown[i].Lag, 0)
		}
		idx = idx[:MaxOffsetsShown]
		slices.Sort(idx)
		cut := make([]cluster.OffsetInfo, 0, MaxOffsetsShown)
		for _, i := range idx {
			cut = append(cut, shown[i])
		}
		shown = cut
	}
	for _, o := range shown {
		ov := OffsetView{OffsetInfo: o, LogStart: -1}
		if ls, ok := logStart(o.Topic, o.Partition); ok {
			ov.LogStart = ls
		}
		gv.Offsets = append(gv.Offsets, ov)
	}
	return gv
}

// groupViews cuts each group's lists for the page, with the log start
// offsets of rows.
func groupViews(groups []cluster.GroupInfo, rows []tableRow) []GroupView {
	var starts map[cluster.PartitionRef]int64
	logStart := func(topic string, partition int32) (int64, bool) {
		if starts == nil {
			starts = make(map[cluster.PartitionRef]int64, len(rows))
			for _, r := range rows {
				starts[cluster.PartitionRef{Topic: r.Topic, Partition: r.Partition}] = r.LogStart
			}
		}
		ls, ok := starts[cluster.PartitionRef{Topic: topic, Partition: partition}]
		return ls, ok
	}
	out := make([]GroupView, 0, len(groups))
	for _, g := range groups {
		out = append(out, groupView(g, logStart))
	}
	return out
}
