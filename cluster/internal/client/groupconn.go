package client

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
)

// A consumer's connection to its group coordinator, and what happens to
// the requests on it when the coordinator goes away. Kafka 3.7's client
// (AbstractCoordinator, ConsumerCoordinator) reacts to each case:
//
//   - The coordinator's broker stops, crashes or loses power, or was
//     restarted (a new process): the connection breaks, the request fails
//     with a DisconnectException, the client marks the coordinator unknown
//     and retries: a JoinGroup or SyncGroup is sent again (to the
//     coordinator FindCoordinator names now), an OffsetFetch is retried, a
//     heartbeat or an auto-commit waits for the next one. Here the member
//     gets the answer COORDINATOR_NOT_AVAILABLE for a JoinGroup or SyncGroup
//     (its retriable reaction is the same), and the consumer asks for the
//     committed offsets again ([Consumer.RequestFailed]).
//   - The broker runs but no longer leads the group's __consumer_offsets
//     partition: the coordinator (GroupCoordinator.onGroupUnloaded) answers
//     the members waiting in a JoinGroup or SyncGroup with NOT_COORDINATOR.
//   - A link is cut: what was in flight on it is lost. Over TCP a short
//     partition only delays it; here the client learns that its
//     connection broke when the link heals (a reset, or the late answer
//     it no longer waits for), and reacts as to a disconnect: a JoinGroup,
//     SyncGroup or OffsetFetch whose request or answer was lost is retried
//     then, instead of after its timeout (request.timeout.ms; for a
//     JoinGroup the rebalance timeout plus 5 s, five minutes by default).
//     An OffsetCommit lost so (or one whose answer still waited for its
//     offsets append when the coordinator's process ended) fails then
//     with COORDINATOR_NOT_AVAILABLE, retriable as a disconnect is: the
//     member counts its commits' answers in order and waits for its
//     revocation commit's own ([Consumer.Dropped]).

// RequestFailed is the client side of a broken connection to the
// coordinator on broker: the request r of the consumer's process
// incarnation inc fails as Kafka's client fails it.
func (c *Consumer) RequestFailed(env Env, inc int, broker int32, r group.Request) {
	if c.grp == nil || c.grp.down || c.grp.inc != inc {
		return
	}
	g := c.grp
	var resp group.Response
	switch r := r.(type) {
	case group.JoinGroup:
		resp = group.JoinGroupResponse{Error: group.CoordinatorNotAvailable}
	case group.SyncGroup:
		resp = group.SyncGroupResponse{Error: group.CoordinatorNotAvailable}
	case group.OffsetFetch:
		g.refetch = true
		return
	case group.OffsetCommit:
		// The commit's future fails with a DisconnectException, a
		// retriable error: an auto-commit is just logged, a revocation
		// commit is sent again (ConsumerCoordinator.onJoinPrepare).
		resp = group.OffsetCommitResponse{Error: group.CoordinatorNotAvailable, Offsets: r.Offsets, Seq: r.Seq}
	case group.ConsumerGroupHeartbeat:
		// Kafka 4's heartbeat request manager marks the coordinator
		// unknown and sends a full heartbeat to the one found next.
		resp = group.ConsumerGroupHeartbeatResponse{Error: group.CoordinatorNotAvailable}
	default:
		return // heartbeats: the next one goes to the coordinator found then
	}
	env.Record(event.Group, 0, nil, "%s: connection to coordinator b%d lost: %T fails (DisconnectException); looks the coordinator up again and retries", c.cfg.Name, broker, r)
	if err := c.stepMember(env, resp); err != nil {
		env.Record(event.Group, 0, nil, "%s: %v", c.cfg.Name, err)
		return
	}
	c.handleMember(env)
}

// severedRequest is a group request of a consumer, or the answer to one,
// lost on a cut link to broker: it fails when the link heals.
type severedRequest struct {
	broker int32
	req    group.Request
}

// Dropped takes a group request of the consumer to broker, or a
// coordinator's answer from broker to it, that the network could not
// deliver for reason: a broker that is not running (or restarted) refuses
// the connection at once; on a cut link ("link cut") the request fails
// when the link heals.
func (c *Consumer) Dropped(env Env, e *netsim.Envelope, broker int32, reason string) {
	if e.Kind == netsim.KindGroupRequest {
		if reason == "link cut" {
			c.sever(e.ClientInc, broker, e.GroupReq)
			return
		}
		c.RequestFailed(env, e.ClientInc, broker, e.GroupReq)
		return
	}
	if reason != "link cut" {
		return
	}
	var req group.Request
	switch r := e.GroupResp.(type) {
	case group.JoinGroupResponse:
		req = group.JoinGroup{}
	case group.SyncGroupResponse:
		req = group.SyncGroup{}
	case group.OffsetFetchResponse:
		req = group.OffsetFetch{}
	case group.OffsetCommitResponse:
		req = group.OffsetCommit{Offsets: r.Offsets, Seq: r.Seq}
	case group.ConsumerGroupHeartbeatResponse:
		req = group.ConsumerGroupHeartbeat{}
	default:
		return
	}
	c.sever(e.ClientInc, broker, req)
}

// sever remembers a request of the consumer's process incarnation inc
// lost on the cut link to broker.
func (c *Consumer) sever(inc int, broker int32, r group.Request) {
	if c.grp == nil || c.grp.down || c.grp.inc != inc {
		return
	}
	c.grp.severed = append(c.grp.severed, severedRequest{broker: broker, req: r})
}

// healedConnections fails the requests lost on links that are whole
// again.
func (c *Consumer) healedConnections(env Env) {
	g := c.grp
	if len(g.severed) == 0 {
		return
	}
	kept := g.severed[:0:0]
	var failed []severedRequest
	for _, s := range g.severed {
		if env.Cut(netsim.ConsumerNode, s.broker) {
			kept = append(kept, s)
		} else {
			failed = append(failed, s)
		}
	}
	g.severed = kept
	for _, s := range failed {
		c.RequestFailed(env, g.inc, s.broker, s.req)
	}
}
