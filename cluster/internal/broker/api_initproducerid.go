package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// initProducerID answers InitProducerId (KafkaApis.handleInitProducerIdRequest).
// For an idempotent producer (a null transactional id): a new producer id,
// epoch 0, every time, as Kafka 3.7's TransactionCoordinator does without
// a transactional id (KIP-360's epoch bump applies to transactional
// producers); the ids are the cluster's, from ProducerIDBase, whichever
// broker the request came to. With a transactional id the request goes to
// the broker's transaction coordinator, which answers NOT_COORDINATOR
// unless it coordinates the id, and otherwise bumps the id's epoch (fencing
// its previous incarnation, whose open transaction it aborts first:
// CONCURRENT_TRANSACTIONS until that is done) once the new state is in
// __transaction_state.
func (rq *Requests) initProducerID(env Env, b *Broker, id uint64, x *Request, req *kmsg.InitProducerIDRequest) {
	resp := req.ResponseKind().(*kmsg.InitProducerIDResponse)
	if req.TransactionalID == nil {
		resp.ProducerID, resp.ProducerEpoch = rq.AllocateProducerID(), 0
		env.Record(event.Produce, x.Broker, nil, "client %d (%s): InitProducerId gives producer id %d, epoch 0", x.Client, x.ClientID, resp.ProducerID)
		rq.answer(id, resp)
		return
	}
	noteTxn(env, x, "InitProducerId (transactional.id %s, transaction.timeout.ms %d)", *req.TransactionalID, req.TransactionTimeoutMillis)
	corr := rq.nextCorr()
	rq.sendTxn(env, b, id, x, req, resp, 0, nil, corr, txn.InitProducerID{Corr: corr, TransactionalID: *req.TransactionalID,
		TimeoutMs: req.TransactionTimeoutMillis, ProducerID: req.ProducerID, Epoch: req.ProducerEpoch})
}

// AllocateProducerID returns a new producer id of the cluster's (Kafka's
// ProducerIdManager), from ProducerIDBase on.
func (rq *Requests) AllocateProducerID() int64 {
	pid := ProducerIDBase + rq.nextPID
	rq.nextPID++
	return pid
}
