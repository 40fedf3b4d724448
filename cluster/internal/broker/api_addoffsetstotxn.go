package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// addOffsetsToTxn answers AddOffsetsToTxn
// (KafkaApis.handleAddOffsetsToTxnRequest): the group's __consumer_offsets
// partition joins the producer's transaction at the coordinator, before
// the producer sends the group's offsets with TxnOffsetCommit
// (sendOffsetsToTransaction).
func (rq *Requests) addOffsetsToTxn(env Env, b *Broker, id uint64, x *Request, req *kmsg.AddOffsetsToTxnRequest) {
	resp := req.ResponseKind().(*kmsg.AddOffsetsToTxnResponse)
	noteTxn(env, x, "AddOffsetsToTxn (transactional.id %s, group %s)", req.TransactionalID, req.Group)
	corr := rq.nextCorr()
	rq.sendTxn(env, b, id, x, req, resp, 0, nil, corr, txn.AddOffsets{Corr: corr, TransactionalID: req.TransactionalID,
		ProducerID: req.ProducerID, Epoch: req.ProducerEpoch, Group: req.Group})
}
