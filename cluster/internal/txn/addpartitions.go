package txn

import (
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// addPartitions handles AddPartitionsToTxn
// (TransactionCoordinator.handleAddPartitionsToTransaction): the partitions
// join the transaction, which is Ongoing once the change is written;
// partitions already in an Ongoing transaction are answered at once.
func (c *Coordinator) addPartitions(env Env, r reply, req AddPartitions) error {
	return c.add(env, r, answerAdd, req.TransactionalID, req.ProducerID, req.Epoch, req.Partitions)
}

// addOffsets handles AddOffsetsToTxn (handleAddPartitionsToTransaction with
// the group's __consumer_offsets partition).
func (c *Coordinator) addOffsets(env Env, r reply, req AddOffsets) error {
	tp := metadata.OffsetsPartition(req.Group, c.cfg.OffsetsTopicNumPartitions)
	return c.add(env, r, answerOffsets, req.TransactionalID, req.ProducerID, req.Epoch, []kafkalog.TopicPartition{tp})
}

func (c *Coordinator) add(env Env, r reply, as answerKind, id string, pid int64, epoch int16, ps []kafkalog.TopicPartition) error {
	pa := &pendingAppend{purpose: forAdd, reply: r, answerAs: as, partitions: ps}
	if id == "" {
		c.answerError(env, pa, kafkaerr.InvalidRequest)
		return nil
	}
	m, code := c.metadataOf(id)
	switch {
	case code != 0:
	case m == nil || m.ProducerID != pid:
		code = invalidProducerIDMapping
	case m.Epoch != epoch:
		code = producerFenced
	case m.HasPending, m.State == kafkalog.TxnPrepareCommit, m.State == kafkalog.TxnPrepareAbort:
		code = concurrentTransactions
	case m.State == kafkalog.TxnOngoing && subset(m.Partitions, ps):
		c.answerOK(env, pa)
		return nil
	}
	if code != 0 {
		c.answerError(env, pa, code)
		return nil
	}
	t, err := m.prepareAddPartitions(ps, env.Now())
	if err != nil {
		return err
	}
	c.write(env, m, t, pa)
	return nil
}

// answerOK answers an add that changes nothing.
func (c *Coordinator) answerOK(env Env, pa *pendingAppend) {
	if pa.answerAs == answerOffsets {
		c.send(env, pa.reply, AddOffsetsResponse{Corr: pa.reply.corr})
		return
	}
	c.send(env, pa.reply, AddPartitionsResponse{Corr: pa.reply.corr, Partitions: allPartitions(pa.partitions, 0)})
}

// verify answers a partition leader's question whether its partitions are
// in the producer's transaction (KIP-890's verification,
// handleVerifyPartitionsInTransaction): nothing is written.
func (c *Coordinator) verify(env Env, r reply, req AddPartitions) {
	answer := func(code int16) {
		c.send(env, r, AddPartitionsResponse{Corr: r.corr, Partitions: allPartitions(req.Partitions, code)})
	}
	m, code := c.metadataOf(req.TransactionalID)
	switch {
	case req.TransactionalID == "":
		answer(kafkaerr.InvalidRequest)
	case code != 0:
		answer(code)
	case m == nil || m.ProducerID != req.ProducerID:
		answer(invalidProducerIDMapping)
	case m.Epoch != req.Epoch:
		answer(producerFenced)
	case m.State == kafkalog.TxnPrepareCommit || m.State == kafkalog.TxnPrepareAbort:
		answer(concurrentTransactions)
	default:
		out := make([]PartitionError, len(req.Partitions))
		for i, tp := range req.Partitions {
			out[i] = PartitionError{TP: tp}
			if !subset(m.Partitions, []kafkalog.TopicPartition{tp}) {
				out[i].Error = invalidTxnState
			}
		}
		c.send(env, r, AddPartitionsResponse{Corr: r.corr, Partitions: out})
	}
}
