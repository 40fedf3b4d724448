package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// findCoordinator answers FindCoordinator (KafkaApis.handleFindCoordinatorRequest,
// v0-v4; v4 batches keys): for a group (key type 0), the broker leading its
// __consumer_offsets partition, which is created on first use; for a
// transactional id (key type 1), the broker leading its
// __transaction_state partition (TransactionStateManager.partitionFor),
// that topic too created on first use, once its coordinator loaded the
// partition. COORDINATOR_NOT_AVAILABLE while the partition has no running
// leader; an empty transactional id is INVALID_REQUEST. The answer carries
// node ids; the wire layer fills in their hosts and ports
// (advertised.listeners).
func (rq *Requests) findCoordinator(env APIEnv, r *kmsg.FindCoordinatorRequest) *kmsg.FindCoordinatorResponse {
	resp := r.ResponseKind().(*kmsg.FindCoordinatorResponse)
	message := errMessage
	find := func(key string) (node int32, code int16) {
		switch r.CoordinatorType {
		case 0:
		case 1:
			return findTxnCoordinator(env, key)
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

// findTxnCoordinator finds transactional id key's coordinator.
func findTxnCoordinator(env APIEnv, key string) (int32, int16) {
	if key == "" {
		return -1, kafkaerr.InvalidRequest
	}
	if err := env.EnsureTxnStateTopic(); err != nil {
		return -1, kafkaerr.CoordinatorNotAvailable
	}
	if id, ok := env.TxnCoordinator(key); ok {
		return id, 0
	}
	return -1, kafkaerr.CoordinatorNotAvailable
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
