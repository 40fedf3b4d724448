package client

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// sendOffsetsToTransaction, as Kafka 3.7's TransactionManager runs it
// (sendOffsetsToTransaction, AddOffsetsToTxnHandler, TxnOffsetCommitHandler):
// AddOffsetsToTxn has the transaction coordinator add the group's
// __consumer_offsets partition to the transaction; once answered,
// TxnOffsetCommit goes to the group's coordinator, which appends the
// offsets as a transactional batch of the producer: they count for the
// group only once the COMMIT marker the transaction coordinator has
// written there is below its high watermark, never after an ABORT. EndTxn
// waits for both answers. Retriable answers (the coordinator moved or is
// loading, too few in-sync replicas, no answer within request.timeout.ms)
// are retried; a group's refusal of the consumer's generation or member
// (TxnOffsetCommit) or an unknown producer id (AddOffsetsToTxn) makes the
// transaction abortable; PRODUCER_FENCED, INVALID_PRODUCER_EPOCH and any
// other error are fatal.

// txnOffsets are the offsets a transaction is to commit for group: tp's
// next offset to read. added: AddOffsetsToTxn was answered.
type txnOffsets struct {
	group  string
	tp     kafkalog.TopicPartition
	offset int64
	added  bool
}

// sendOffsets sends the request the transaction's offsets wait for:
// AddOffsetsToTxn to the transaction coordinator, then TxnOffsetCommit to
// the group's coordinator.
func (p *Producer) sendOffsets(env Env) {
	t, o := p.txn, p.txn.offsets
	if !o.added {
		p.sendTxn(env, "AddOffsetsToTxn", func(corr int64) netsim.TxnMessage {
			return txn.AddOffsets{Corr: corr, TransactionalID: p.cfg.TransactionalID, ProducerID: t.pid, Epoch: p.epoch, Group: o.group}
		})
		return
	}
	broker, ok := env.Coordinator(o.group)
	if !ok {
		if err := env.EnsureOffsetsTopic(); err != nil {
			env.Record(event.Transaction, 0, nil, "%s: FindCoordinator (group %s) fails: %v", p.cfg.Name, o.group, err)
		}
		t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
		return
	}
	p.corr++
	t.req = &txnRequest{corr: p.corr, broker: broker, sentMs: env.Now(), name: "TxnOffsetCommit"}
	env.Record(event.Transaction, 0, &o.tp, "%s: TxnOffsetCommit (group %s, %s-%d: %d) to b%d", p.cfg.Name, o.group, o.tp.Topic, o.tp.Partition, o.offset, broker)
	env.Send(netsim.Envelope{From: p.id, To: broker, Kind: netsim.KindTxnRequest, Txn: txn.TxnOffsetCommit{Corr: p.corr, TransactionalID: p.cfg.TransactionalID,
		ProducerID: t.pid, Epoch: p.epoch, Group: o.group, Generation: -1, Offsets: []txn.CommitOffset{{TP: o.tp, Offset: o.offset}}}})
}

// offsetsAdded takes AddOffsetsToTxn's answer.
func (p *Producer) offsetsAdded(env Env, code int16) {
	t := p.txn
	switch {
	case code == 0:
		t.offsets.added = true
		env.Record(event.Transaction, 0, nil, "%s: AddOffsetsToTxn (group %s): the group's offsets partition is in the transaction", p.cfg.Name, t.offsets.group)
	case code == kafkaerr.UnknownProducerID || code == kafkaerr.InvalidProducerIDMapping:
		p.offsetsFailed(env, "AddOffsetsToTxn", code)
	default:
		p.txnError(env, "AddOffsetsToTxn", code) // retried, or fatal
	}
}

// offsetsAnswered takes a group coordinator's answer to the TxnOffsetCommit
// in flight, reporting whether e was it: a refusal before the append, or
// the leader's answer to the append (its error mapped as the coordinator
// maps it, txn.OffsetsAppendError).
func (p *Producer) offsetsAnswered(env Env, e *netsim.Envelope) bool {
	t := p.txn
	if t == nil || t.req == nil || t.req.name != "TxnOffsetCommit" {
		return false
	}
	var code int16
	switch {
	case e.Kind == netsim.KindProduceResp && e.Resp.CorrelationID == t.req.corr:
		code = txn.OffsetsAppendError(e.Resp.Error)
	case e.Kind == netsim.KindTxnResponse && txn.CorrOf(e.Txn) == t.req.corr:
		m, ok := e.Txn.(txn.TxnOffsetCommitResponse)
		if !ok {
			return false
		}
		code = m.Error
	default:
		return false
	}
	t.req = nil
	o := t.offsets
	switch {
	case code == 0:
		t.offsets = nil
		env.Record(event.Transaction, 0, &o.tp, "%s: TxnOffsetCommit (group %s, %s-%d: %d) appended: pending until the transaction ends", p.cfg.Name, o.group, o.tp.Topic, o.tp.Partition, o.offset)
	case retriableTxnError(code) || code == kafkaerr.UnknownTopicOrPartition || code == kafkaerr.RequestTimedOut:
		env.Record(event.Transaction, 0, &o.tp, "%s: TxnOffsetCommit got %s: retried after retry.backoff.ms", p.cfg.Name, kafkaerr.Name(code))
		t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
	case code == int16(group.FencedInstanceID) || code == int16(group.UnknownMemberID) || code == int16(group.IllegalGeneration):
		p.offsetsFailed(env, "TxnOffsetCommit", code) // the client's CommitFailedException
	default:
		p.txnError(env, "TxnOffsetCommit", code) // fenced, or unexpected: fatal
	}
	p.tickTransaction(env)
	return true
}

// offsetsFailed makes the transaction abortable: its offsets are not
// committed (a commit ends as an abort).
func (p *Producer) offsetsFailed(env Env, name string, code int16) {
	t := p.txn
	env.Record(event.Transaction, 0, &t.offsets.tp, "%s: %s got %s: the transaction can only abort", p.cfg.Name, name, kafkaerr.Name(code))
	t.offsets = nil
	t.failed++
	t.offsetsFailed = true
}
