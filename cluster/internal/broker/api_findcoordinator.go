package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// noTxnCoordinator is the answer to a transactional producer's search for
// its coordinator.
const noTxnCoordinator = "COORDINATOR_NOT_AVAILABLE: the simulated cluster runs no transaction coordinator for clients (transactional.id is not served)"

// findCoordinator answers FindCoordinator (KafkaApis.handleFindCoordinatorRequest,
// v0-v4; v4 batches keys): for a group, the broker leading its
// __consumer_offsets partition, which is created on first use;
// COORDINATOR_NOT_AVAILABLE while that partition has no running leader.
// Transactions are not simulated: a transactional id's coordinator is
// COORDINATOR_NOT_AVAILABLE, and a transactional producer, which retries
// until its own timeout, is told so once, on the page and in the answer's
// message. The answer carries node ids; the wire layer fills in their
// hosts and ports (advertised.listeners).
func (rq *Requests) findCoordinator(env APIEnv, x *Request, r *kmsg.FindCoordinatorRequest) *kmsg.FindCoordinatorResponse {
	if r.CoordinatorType == 1 {
		if c := rq.client(env, x); c.LastError != noTxnCoordinator {
			c.LastError = noTxnCoordinator
			env.Record(event.Produce, x.Broker, nil, "client %d (%s): FindCoordinator for a transactional.id: %s", x.Client, x.ClientID, noTxnCoordinator)
		}
	}
	resp := r.ResponseKind().(*kmsg.FindCoordinatorResponse)
	message := func(code int16) *string {
		if r.CoordinatorType == 1 && code == kafkaerr.CoordinatorNotAvailable {
			return ptr(noTxnCoordinator)
		}
		return errMessage(code)
	}
	find := func(key string) (node int32, code int16) {
		switch r.CoordinatorType {
		case 0:
		case 1:
			return -1, kafkaerr.CoordinatorNotAvailable
		default:
			return -1, kafkaerr.InvalidRequest
		}
		if err := env.EnsureOffsetsTopic(); err != nil {
			return -1, kafkaerr.CoordinatorNotAvailable
		}
		if id, ok := env.Coordinator(key); ok {
			return id, 0
		}
		return -1, kafkaerr.CoordinatorNotAvailable
	}
	if r.Version < 4 {
		resp.NodeID, resp.ErrorCode = find(r.CoordinatorKey)
		resp.Port = -1
		if r.Version >= 1 {
			resp.ErrorMessage = message(resp.ErrorCode)
		}
		return resp
	}
	for _, k := range r.CoordinatorKeys {
		c := kmsg.NewFindCoordinatorResponseCoordinator()
		c.Key = k
		c.NodeID, c.ErrorCode = find(k)
		c.Port = -1
		c.ErrorMessage = message(c.ErrorCode)
		resp.Coordinators = append(resp.Coordinators, c)
	}
	return resp
}

// errMessage is the ErrorMessage Kafka sends with a code (Errors.message):
// the exception's message, "NONE" for success.
func errMessage(code int16) *string {
	switch code {
	case 0:
		return ptr("NONE")
	case int16(group.CoordinatorNotAvailable):
		return ptr("The coordinator is not available.")
	case kafkaerr.InvalidRequest:
		return ptr("This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.")
	}
	return ptr(kafkaerr.Name(code))
}
