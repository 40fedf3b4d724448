package cluster

import "github.com/twmb/franz-go/pkg/kmsg"

// isGroupKey reports whether key is one of the consumer-group APIs
// (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit, OffsetFetch, DescribeGroups, ListGroups).
func isGroupKey(key int16) bool {
	switch key {
	case 8, 9, 10, 11, 12, 13, 14, 15, 16:
		return true
	}
	return false
}

// externalGroupRequest is the one entry point of an external client's
// consumer-group request (x's key is one of isGroupKey's; req is x
// decoded), request id id. It answers now or later with w.answer(id, ...).
//
// The group coordinator is not served to external clients yet: every
// group request is answered COORDINATOR_NOT_AVAILABLE (retriable: the
// client asks again), so that a plain consumer (assigned partitions, no
// group) works and a group consumer waits.
func (w *World) externalGroupRequest(id uint64, x *ExternalRequest, req kmsg.Request) {
	resp := req.ResponseKind()
	const code = errCoordinatorNotAvailable
	switch r := resp.(type) {
	case *kmsg.FindCoordinatorResponse:
		r.ErrorCode, r.NodeID, r.Port = code, -1, -1
		if q, ok := req.(*kmsg.FindCoordinatorRequest); ok {
			keys := q.CoordinatorKeys
			if len(keys) == 0 {
				keys = []string{q.CoordinatorKey}
			}
			for _, k := range keys {
				c := kmsg.NewFindCoordinatorResponseCoordinator()
				c.Key, c.NodeID, c.Port, c.ErrorCode = k, -1, -1, code
				r.Coordinators = append(r.Coordinators, c)
			}
		}
	case *kmsg.JoinGroupResponse:
		r.ErrorCode, r.Generation = code, -1
	case *kmsg.SyncGroupResponse:
		r.ErrorCode = code
	case *kmsg.HeartbeatResponse:
		r.ErrorCode = code
	case *kmsg.LeaveGroupResponse:
		r.ErrorCode = code
	case *kmsg.ListGroupsResponse:
		r.ErrorCode = code
	case *kmsg.DescribeGroupsResponse:
		if q, ok := req.(*kmsg.DescribeGroupsRequest); ok {
			for _, g := range q.Groups {
				d := kmsg.NewDescribeGroupsResponseGroup()
				d.Group, d.ErrorCode = g, code
				r.Groups = append(r.Groups, d)
			}
		}
	case *kmsg.OffsetCommitResponse:
		if q, ok := req.(*kmsg.OffsetCommitRequest); ok {
			for _, t := range q.Topics {
				rt := kmsg.NewOffsetCommitResponseTopic()
				rt.Topic = t.Topic
				for _, p := range t.Partitions {
					rp := kmsg.NewOffsetCommitResponseTopicPartition()
					rp.Partition, rp.ErrorCode = p.Partition, code
					rt.Partitions = append(rt.Partitions, rp)
				}
				r.Topics = append(r.Topics, rt)
			}
		}
	case *kmsg.OffsetFetchResponse:
		r.ErrorCode = code
		if q, ok := req.(*kmsg.OffsetFetchRequest); ok {
			for _, g := range q.Groups {
				rg := kmsg.NewOffsetFetchResponseGroup()
				rg.Group, rg.ErrorCode = g.Group, code
				r.Groups = append(r.Groups, rg)
			}
		}
	}
	w.answer(id, resp)
}
