package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// addPartitionsToTxn answers AddPartitionsToTxn
// (KafkaApis.handleAddPartitionsToTxnRequest): the partitions a producer
// is about to write join its transaction at the coordinator, which answers
// once the transaction's new state is in __transaction_state. Up to v3 a
// request is one producer's; from v4 (KIP-890, brokers' requests) it
// carries several transactions, each a part, answered when the last is. A
// partition of a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION
// and the others OPERATION_NOT_ATTEMPTED, as Kafka answers without asking
// the coordinator.
func (rq *Requests) addPartitionsToTxn(env Env, b *Broker, id uint64, x *Request, req *kmsg.AddPartitionsToTxnRequest) {
	resp := req.ResponseKind().(*kmsg.AddPartitionsToTxnResponse)
	type part struct {
		msg txn.AddPartitions
	}
	var parts []part
	if req.Version < 4 {
		ps := txnPartitions(req.Topics, func(t kmsg.AddPartitionsToTxnRequestTopic) (string, []int32) { return t.Topic, t.Partitions })
		parts = append(parts, part{txn.AddPartitions{TransactionalID: req.TransactionalID, ProducerID: req.ProducerID, Epoch: req.ProducerEpoch, Partitions: ps}})
	} else {
		for _, t := range req.Transactions {
			ps := txnPartitions(t.Topics, func(t kmsg.AddPartitionsToTxnRequestTransactionTopic) (string, []int32) { return t.Topic, t.Partitions })
			parts = append(parts, part{txn.AddPartitions{TransactionalID: t.TransactionalID, ProducerID: t.ProducerID, Epoch: t.ProducerEpoch,
				Partitions: ps, VerifyOnly: t.VerifyOnly}})
		}
	}
	open := len(parts)
	if open == 0 {
		rq.answer(id, resp)
		return
	}
	for i, p := range parts {
		if code, bad := unknownPartitions(env, p.msg.Partitions); bad {
			fillAddPartitions(req, resp, i, txn.AddPartitionsResponse{Partitions: code})
			if open--; open == 0 {
				rq.answer(id, resp)
			}
			continue
		}
		noteTxn(env, x, "AddPartitionsToTxn (transactional.id %s, producer id %d, epoch %d) %s", p.msg.TransactionalID, p.msg.ProducerID, p.msg.Epoch, txn.PartitionsText(p.msg.Partitions))
		p.msg.Corr = rq.nextCorr()
		rq.sendTxn(env, b, id, x, req, resp, i, &open, p.msg.Corr, p.msg)
	}
}

// unknownPartitions answers a list holding partitions that do not exist:
// those UNKNOWN_TOPIC_OR_PARTITION, the others OPERATION_NOT_ATTEMPTED.
func unknownPartitions(env Env, ps []kafkalog.TopicPartition) ([]txn.PartitionError, bool) {
	out := make([]txn.PartitionError, len(ps))
	bad := false
	for i, k := range ps {
		out[i] = txn.PartitionError{TP: k, Error: kafkaerr.OperationNotAttempted}
		if !hasPartition(topicNamed(env, k.Topic), k.Partition) {
			out[i].Error, bad = kafkaerr.UnknownTopicOrPartition, true
		}
	}
	return out, bad
}

// fillAddPartitions writes the answer of part part into resp.
func fillAddPartitions(req *kmsg.AddPartitionsToTxnRequest, resp *kmsg.AddPartitionsToTxnResponse, part int, a txn.AddPartitionsResponse) {
	codes := errorsByPartition(a.Partitions)
	if req.Version < 4 {
		for _, t := range req.Topics {
			rt := kmsg.NewAddPartitionsToTxnResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewAddPartitionsToTxnResponseTopicPartition()
				rp.Partition = p
				rp.ErrorCode = fencedFor(codes[kafkalog.TopicPartition{Topic: t.Topic, Partition: p}], req.Version, 2)
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return
	}
	for len(resp.Transactions) < len(req.Transactions) {
		resp.Transactions = append(resp.Transactions, kmsg.NewAddPartitionsToTxnResponseTransaction())
	}
	t := req.Transactions[part]
	rt := &resp.Transactions[part]
	rt.TransactionalID, rt.Topics = t.TransactionalID, nil
	for _, tt := range t.Topics {
		rtt := kmsg.NewAddPartitionsToTxnResponseTransactionTopic()
		rtt.Topic = tt.Topic
		for _, p := range tt.Partitions {
			rp := kmsg.NewAddPartitionsToTxnResponseTransactionTopicPartition()
			rp.Partition, rp.ErrorCode = p, codes[kafkalog.TopicPartition{Topic: tt.Topic, Partition: p}]
			rtt.Partitions = append(rtt.Partitions, rp)
		}
		rt.Topics = append(rt.Topics, rtt)
	}
}
