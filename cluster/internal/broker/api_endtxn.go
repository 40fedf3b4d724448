package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// endTxn answers EndTxn (KafkaApis.handleEndTxnRequest): commit or abort.
// The coordinator answers once PrepareCommit or PrepareAbort is in
// __transaction_state; the markers go out to the partitions' leaders after
// that, and the transaction is complete once they are written (a
// read_committed consumer sees the records when the COMMIT marker is below
// the high watermark). EndTxn v5 (transaction.version 2) is Kafka 4.0's.
func (rq *Requests) endTxn(env Env, b *Broker, id uint64, x *Request, req *kmsg.EndTxnRequest) {
	resp := req.ResponseKind().(*kmsg.EndTxnResponse)
	resp.ProducerID, resp.ProducerEpoch = -1, -1
	verb := "abort"
	if req.Commit {
		verb = "commit"
	}
	noteTxn(env, x, "EndTxn %s (transactional.id %s, producer id %d, epoch %d)", verb, req.TransactionalID, req.ProducerID, req.ProducerEpoch)
	corr := rq.nextCorr()
	rq.sendTxn(env, b, id, x, req, resp, 0, nil, corr, txn.EndTxn{Corr: corr, TransactionalID: req.TransactionalID,
		ProducerID: req.ProducerID, Epoch: req.ProducerEpoch, Commit: req.Commit, TV2: req.Version >= 5})
}
