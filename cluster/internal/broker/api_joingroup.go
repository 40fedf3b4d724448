package broker

import (
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// joinGroup translates a JoinGroup for b's coordinator: the protocols'
// metadata as it came, and for the "consumer" protocol type each one
// decoded into a subscription. A group id that is empty is
// INVALID_GROUP_ID; a member with no protocol type or no protocols cannot
// join (GroupCoordinator.handleJoinGroup: INCONSISTENT_GROUP_PROTOCOL).
func (rq *Requests) joinGroup(env Env, b *Broker, id uint64, x *Request, r *kmsg.JoinGroupRequest) {
	resp := r.ResponseKind().(*kmsg.JoinGroupResponse)
	if r.Group == "" {
		fillAnswer(r, resp, 0, nil, kafkaerr.InvalidGroupID, nil)
		rq.answer(id, resp)
		return
	}
	if r.ProtocolType == "" || len(r.Protocols) == 0 {
		fillAnswer(r, resp, 0, nil, int16(group.InconsistentGroupProtocol), nil)
		rq.answer(id, resp)
		return
	}
	j := group.JoinGroup{GroupID: r.Group, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID),
		ClientID: x.ClientID, ClientHost: clientHost(x.Remote), NoMemberIDRequired: r.Version < 4,
		SessionTimeoutMs: r.SessionTimeoutMillis, RebalanceTimeoutMs: r.RebalanceTimeoutMillis, ProtocolType: r.ProtocolType}
	if r.Version == 0 {
		j.RebalanceTimeoutMs = r.SessionTimeoutMillis // v0 has none: the session timeout is used
	}
	for _, p := range r.Protocols {
		gp := group.Protocol{Name: p.Name, Metadata: slices.Clone(p.Metadata), Subscription: group.Subscription{Generation: -1}}
		if gp.Metadata == nil {
			gp.Metadata = []byte{}
		}
		if r.ProtocolType == consumerProtocolType {
			gp.Subscription = decodeSubscription(p.Name, p.Metadata)
		}
		j.Protocols = append(j.Protocols, gp)
	}
	rq.step(env, b, id, x, r, resp, []group.Request{j})
}

func fillJoinResponse(r *kmsg.JoinGroupResponse, a group.JoinGroupResponse) {
	r.ErrorCode, r.MemberID = int16(a.Error), a.MemberID
	if a.Error != group.None {
		r.Generation, r.LeaderID, r.Members = -1, "", nil
		if r.Version < 7 {
			r.Protocol = ptr("")
		}
		return
	}
	r.Generation, r.LeaderID, r.SkipAssignment = a.GenerationID, a.Leader, a.SkipAssignment
	r.Protocol = ptr(a.ProtocolName)
	if r.Version >= 7 {
		r.ProtocolType = ptr(a.ProtocolType)
	}
	for _, m := range a.Members {
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.MemberID
		if m.GroupInstanceID != "" {
			jm.InstanceID = ptr(m.GroupInstanceID)
		}
		jm.ProtocolMetadata = m.Metadata
		if jm.ProtocolMetadata == nil {
			jm.ProtocolMetadata = encodeSubscription(a.ProtocolName, m.Subscription)
		}
		r.Members = append(r.Members, jm)
	}
}

// clientHost is Kafka's ClientHost of a client at remote ("ip:port"):
// "/ip" (InetAddress.toString), "/" when unknown.
func clientHost(remote string) string {
	host := remote
	if i := strings.LastIndexByte(remote, ':'); i >= 0 {
		host = remote[:i]
	}
	return "/" + strings.Trim(host, "[]")
}
