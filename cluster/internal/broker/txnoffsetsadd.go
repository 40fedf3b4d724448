package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// Under transaction.version 2 (KIP-890 part 2) a producer sends no
// AddOffsetsToTxn: its TxnOffsetCommit v5+ has the group's coordinator add
// the group's __consumer_offsets partition to the transaction itself
// (Kafka 4.0's txnOffsetCommitRequestVersionToTransactionSupportedOperation:
// ADD_PARTITION from v5), through the same AddPartitionsToTxn a leader
// sends for a Produce v12, before the offsets are written
// (CoordinatorRuntime.scheduleTransactionalWriteOperation verifies, then
// writes): the request is taken again once the coordinator answered, its
// group checks included. A refusal reaches the client as the group
// coordinator normalizes it: PRODUCER_FENCED as INVALID_PRODUCER_EPOCH,
// the coordinator's retriable errors as COORDINATOR_NOT_AVAILABLE, which it
// retries.

// txnOffsetCommitAddsPartitionVersion is the first TxnOffsetCommit version
// whose offsets partition is added to the transaction by the group's
// coordinator.
const txnOffsetCommitAddsPartitionVersion = 5

// offsetsAdd is a TxnOffsetCommit waiting for its offsets partition to
// join the transaction.
type offsetsAdd struct {
	x   *Request
	req *kmsg.TxnOffsetCommitRequest
	// incarnation is the group coordinator's broker's: a request to a
	// process that ended is never answered.
	incarnation int
}

// addOffsetsPartition has the transaction coordinator of req's
// transactional id add k, the group's offsets partition, for TxnOffsetCommit
// id of client x at broker b; the request waits for the answer.
func (rq *Requests) addOffsetsPartition(env Env, b *Broker, id uint64, x *Request, req *kmsg.TxnOffsetCommitRequest, k tp) {
	ask := txnAsk{id: req.TransactionalID, pid: req.ProducerID, epoch: req.ProducerEpoch, add: true, startMs: env.Now()}
	corr := rq.nextCorr()
	w := produceVerify{id: id, offsets: &offsetsAdd{x: x, req: req, incarnation: b.Incarnation()}, x: x, k: k, broker: b.ID(), ask: ask, deadlineMs: env.Now() + RequestTimeoutMs}
	if !b.askVerification(env, clientNode(x.Client), corr, ask, k) {
		rq.offsetsPartitionSettled(env, b, w, kafkaerr.CoordinatorNotAvailable)
		return
	}
	w.coord = coordinatorOf(env, b, req.TransactionalID)
	if rq.verifies == nil {
		rq.verifies = map[int64]produceVerify{}
	}
	rq.verifies[corr] = w
}

// offsetsPartitionSettled takes the coordinator's answer code to the add
// of w's offsets partition: the TxnOffsetCommit is taken again (the add
// done), or answered with the error.
func (rq *Requests) offsetsPartitionSettled(env Env, b *Broker, w produceVerify, code int16) {
	req := w.offsets.req
	if b.State() != BrokerRunning || b.Incarnation() != w.offsets.incarnation {
		return
	}
	if code == 0 {
		if rq.offsetsAdded == nil {
			rq.offsetsAdded = map[uint64]bool{}
		}
		rq.offsetsAdded[w.id] = true
		rq.txnOffsetCommit(env, b, w.id, w.offsets.x, req)
		return
	}
	perr, _ := verificationError(code)
	if perr == kafkaerr.NotEnoughReplicas {
		perr = kafkaerr.CoordinatorNotAvailable // GroupCoordinatorService.normalizeException
	}
	noteTxn(env, w.offsets.x, "TxnOffsetCommit of group %s refused: %s (the transaction coordinator answered %s to the add of %s)", req.Group, kafkaerr.Name(perr), kafkaerr.Name(code), w.k)
	resp := req.ResponseKind().(*kmsg.TxnOffsetCommitResponse)
	for _, t := range req.Topics {
		rt := kmsg.NewTxnOffsetCommitResponseTopic()
		rt.Topic = t.Topic
		for _, p := range t.Partitions {
			rp := kmsg.NewTxnOffsetCommitResponseTopicPartition()
			rp.Partition, rp.ErrorCode = p.Partition, perr
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	rq.answer(w.id, resp)
}

// offsetsPartitionNeeded reports whether TxnOffsetCommit id (of version
// version) is first to have its offsets partition added, and forgets an
// add done for it.
func (rq *Requests) offsetsPartitionNeeded(id uint64, version int16) bool {
	if version < txnOffsetCommitAddsPartitionVersion {
		return false
	}
	if rq.offsetsAdded[id] {
		delete(rq.offsetsAdded, id)
		return false
	}
	return true
}
