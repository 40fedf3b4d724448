package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// leaveGroup hands each leaving member to b's coordinator (v3+ batches
// members, KIP-345).
func (rq *Requests) leaveGroup(env Env, b *Broker, id uint64, x *Request, r *kmsg.LeaveGroupRequest) {
	resp := r.ResponseKind().(*kmsg.LeaveGroupResponse)
	var parts []group.Request
	if r.Version < 3 {
		parts = append(parts, group.LeaveGroup{GroupID: r.Group, MemberID: r.MemberID})
	} else {
		for _, m := range r.Members {
			parts = append(parts, group.LeaveGroup{GroupID: r.Group, MemberID: m.MemberID, GroupInstanceID: deref(m.InstanceID)})
			lm := kmsg.NewLeaveGroupResponseMember()
			lm.MemberID, lm.InstanceID = m.MemberID, m.InstanceID
			resp.Members = append(resp.Members, lm)
		}
	}
	if r.Group == "" {
		resp.ErrorCode = kafkaerr.InvalidGroupID
		rq.answer(id, resp)
		return
	}
	rq.step(env, b, id, x, r, resp, parts)
}

// fillLeaveResponse writes the answer code to part part (a member, v3+) of
// a LeaveGroup's response: before v3 the response's error is the first
// member's; NOT_COORDINATOR and INVALID_GROUP_ID are the group's.
func fillLeaveResponse(r *kmsg.LeaveGroupResponse, part int, code int16) {
	if r.Version < 3 {
		if r.ErrorCode == 0 {
			r.ErrorCode = code
		}
		return
	}
	if code == kafkaerr.NotCoordinator || code == kafkaerr.InvalidGroupID {
		r.ErrorCode = code // a group-level error
		r.Members = nil
		return
	}
	if part < len(r.Members) {
		r.Members[part].ErrorCode = code
	}
}
