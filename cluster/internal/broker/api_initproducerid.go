package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// initProducerID answers InitProducerId for an idempotent producer (a
// null transactional id): a new producer id, epoch 0, every time, as Kafka
// 3.7's TransactionCoordinator.handleInitProducerId does without a
// transactional id (KIP-360's epoch bump applies to transactional
// producers). The ids are the cluster's, from ProducerIDBase, whichever
// broker the request came to. Transactions are not modelled: a
// transactional id is UNSUPPORTED_VERSION.
func (rq *Requests) initProducerID(env Env, x *Request, req *kmsg.InitProducerIDRequest) *kmsg.InitProducerIDResponse {
	resp := kmsg.NewPtrInitProducerIDResponse()
	if req.TransactionalID != nil {
		resp.ErrorCode, resp.ProducerID, resp.ProducerEpoch = kafkaerr.UnsupportedVersion, -1, -1
		return resp
	}
	resp.ProducerID, resp.ProducerEpoch = ProducerIDBase+rq.nextPID, 0
	rq.nextPID++
	env.Record(event.Produce, x.Broker, nil, "client %d (%s): InitProducerId gives producer id %d, epoch 0", x.Client, x.ClientID, resp.ProducerID)
	return resp
}
