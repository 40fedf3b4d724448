package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/group"
)

// heartbeat hands a member's Heartbeat to b's coordinator, which answers
// at once: REBALANCE_IN_PROGRESS tells the member to join again.
func (rq *Requests) heartbeat(env Env, b *Broker, id uint64, x *Request, r *kmsg.HeartbeatRequest) {
	h := group.Heartbeat{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID)}
	rq.step(env, b, id, x, r, r.ResponseKind(), []group.Request{h})
}
