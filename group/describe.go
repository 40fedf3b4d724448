package group

import (
	"fmt"
	"strings"
)

// DescribeRequest returns a deterministic one-line description of a request
// for logs, timelines and test files, e.g.
// `JoinGroup g member="c-1" protocols=[range] owned=[]`.
func DescribeRequest(r Request) string {
	switch r := r.(type) {
	case JoinGroup:
		var names []string
		owned := "[]"
		for _, p := range r.Protocols {
			names = append(names, p.Name)
			owned = FormatPartitions(p.Subscription.OwnedPartitions)
		}
		s := fmt.Sprintf("JoinGroup %s member=%q protocols=%v owned=%s", r.GroupID, r.MemberID, names, owned)
		if r.GroupInstanceID != "" {
			s += " instance=" + r.GroupInstanceID
		}
		return s
	case SyncGroup:
		s := fmt.Sprintf("SyncGroup %s gen=%d member=%s", r.GroupID, r.GenerationID, r.MemberID)
		for _, a := range r.Assignments {
			s += fmt.Sprintf(" %s=%s", a.MemberID, FormatPartitions(a.Partitions))
		}
		return s
	case LeaveGroup:
		return fmt.Sprintf("LeaveGroup %s member=%s", r.GroupID, r.MemberID)
	case Heartbeat:
		return fmt.Sprintf("Heartbeat %s gen=%d member=%s", r.GroupID, r.GenerationID, r.MemberID)
	case OffsetCommit:
		var parts []string
		for _, o := range r.Offsets {
			parts = append(parts, fmt.Sprintf("%s=%d", o.TopicPartition, o.Offset))
		}
		return fmt.Sprintf("OffsetCommit %s gen=%d member=%s %s", r.GroupID, r.GenerationID, r.MemberID, strings.Join(parts, " "))
	case OffsetFetch:
		return fmt.Sprintf("OffsetFetch %s %s", r.GroupID, FormatPartitions(r.Partitions))
	case ConsumerGroupHeartbeat:
		return describeConsumerHeartbeat(r)
	default:
		return fmt.Sprintf("%T", r)
	}
}

// describeConsumerHeartbeat prints a heartbeat with the fields it sent,
// e.g. `ConsumerGroupHeartbeat g member=A epoch=3 owned=[t-0]`.
func describeConsumerHeartbeat(r ConsumerGroupHeartbeat) string {
	s := fmt.Sprintf("ConsumerGroupHeartbeat %s member=%s epoch=%d", r.GroupID, r.MemberID, r.MemberEpoch)
	if r.InstanceID != "" {
		s += " instance=" + r.InstanceID
	}
	if r.SubscribedTopicNames != nil {
		s += fmt.Sprintf(" topics=%v", r.SubscribedTopicNames)
	}
	if r.ServerAssignor != "" {
		s += " assignor=" + r.ServerAssignor
	}
	if r.Owned != nil {
		s += " owned=" + FormatPartitions(r.Owned)
	}
	return s
}

// DescribeResponse returns a deterministic one-line description of a
// response, e.g. `SyncGroup [t-0 t-1]` or `Heartbeat REBALANCE_IN_PROGRESS`.
func DescribeResponse(r Response) string {
	switch r := r.(type) {
	case JoinGroupResponse:
		if r.Error != None {
			return fmt.Sprintf("JoinGroup %s member=%s", r.Error.String(), r.MemberID)
		}
		s := fmt.Sprintf("JoinGroup gen=%d protocol=%s leader=%s member=%s", r.GenerationID, r.ProtocolName, r.Leader, r.MemberID)
		if len(r.Members) > 0 {
			s += fmt.Sprintf(" (%d subscriptions)", len(r.Members))
		}
		if r.SkipAssignment {
			s += " skip-assignment"
		}
		return s
	case SyncGroupResponse:
		if r.Error != None {
			return "SyncGroup " + r.Error.String()
		}
		return "SyncGroup " + FormatPartitions(r.Assignment)
	case HeartbeatResponse:
		return "Heartbeat " + r.Error.String()
	case OffsetFetchResponse:
		if r.Error != None {
			return "OffsetFetch " + r.Error.String()
		}
		parts := []string{"OffsetFetch"}
		for _, o := range r.Offsets {
			parts = append(parts, fmt.Sprintf("%s=%d", o.TopicPartition, o.Offset))
		}
		return strings.Join(parts, " ")
	case LeaveGroupResponse:
		return "LeaveGroup " + r.Error.String()
	case OffsetCommitResponse:
		return "OffsetCommit " + r.Error.String()
	case ConsumerGroupHeartbeatResponse:
		if r.Error != None {
			return "ConsumerGroupHeartbeat " + r.Error.String()
		}
		s := fmt.Sprintf("ConsumerGroupHeartbeat member=%s epoch=%d", r.MemberID, r.MemberEpoch)
		if r.Assignment != nil {
			s += " assignment=" + FormatPartitions(r.Assignment)
		}
		return s
	default:
		return fmt.Sprintf("%T", r)
	}
}
