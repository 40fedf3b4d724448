package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/group"
)

// syncGroup translates a SyncGroup for b's coordinator: the leader's
// assignments as bytes, and for a "consumer" group each one decoded into
// partitions.
func (rq *Requests) syncGroup(env Env, b *Broker, id uint64, x *Request, r *kmsg.SyncGroupRequest) {
	s := group.SyncGroup{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID),
		ProtocolType: deref(r.ProtocolType), ProtocolName: deref(r.Protocol)}
	consumer := s.ProtocolType == consumerProtocolType
	if s.ProtocolType == "" && b.RunningCoordinator() != nil {
		if st, ok := b.RunningCoordinator().Group(r.Group); ok {
			consumer = st.ProtocolType == consumerProtocolType
		}
	}
	for _, a := range r.GroupAssignment {
		ma := group.MemberAssignment{MemberID: a.MemberID, Data: slices.Clone(a.MemberAssignment)}
		if ma.Data == nil {
			ma.Data = []byte{}
		}
		if consumer {
			ma.Partitions = decodeAssignment(a.MemberAssignment)
		}
		s.Assignments = append(s.Assignments, ma)
	}
	rq.step(env, b, id, x, r, r.ResponseKind(), []group.Request{s})
}

func fillSyncResponse(r *kmsg.SyncGroupResponse, a group.SyncGroupResponse) {
	r.ErrorCode = int16(a.Error)
	r.MemberAssignment = []byte{}
	if a.Error != group.None {
		return
	}
	if r.Version >= 5 {
		r.ProtocolType, r.Protocol = ptr(a.ProtocolType), ptr(a.ProtocolName)
	}
	switch {
	case a.Data != nil:
		r.MemberAssignment = a.Data
	case a.ProtocolType == consumerProtocolType:
		r.MemberAssignment = encodeAssignment(a.Assignment)
	}
}
