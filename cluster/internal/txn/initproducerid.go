package txn

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// initProducerID handles InitProducerId with a transactional id
// (TransactionCoordinator.handleInitProducerId): a new id gets a producer
// id and epoch 0; a known one a bumped epoch, which fences the producer's
// previous incarnation. An open transaction is aborted first, with the
// epoch bumped, and the producer told CONCURRENT_TRANSACTIONS: it retries,
// and its retry bumps the epoch again.
func (c *Coordinator) initProducerID(env Env, r reply, req InitProducerID) error {
	fail := func(code int16) {
		c.send(env, r, InitProducerIDResponse{Corr: r.corr, Error: code, ProducerID: noProducerID, Epoch: noProducerID})
	}
	switch {
	case req.TransactionalID == "":
		fail(kafkaerr.InvalidRequest)
		return nil
	case req.TimeoutMs <= 0 || req.TimeoutMs > c.cfg.MaxTimeoutMs:
		fail(kafkaerr.InvalidTransactionTimeout)
		return nil
	}
	m, code := c.metadataOf(req.TransactionalID)
	if code != 0 {
		fail(code)
		return nil
	}
	if m == nil {
		m = &Metadata{ID: req.TransactionalID, Partition: c.partitionOf(req.TransactionalID), ProducerID: env.AllocateProducerID(),
			PrevProducerID: noProducerID, NextProducerID: noProducerID, Epoch: noProducerID, LastEpoch: noProducerID,
			TimeoutMs: req.TimeoutMs, State: kafkalog.TxnEmpty, StartMs: -1, LastUpdateMs: env.Now()}
		c.txns[m.ID] = m
	}
	given := req.ProducerID != noProducerID || req.Epoch != noProducerID
	validPID := m.Epoch == noProducerID || req.ProducerID == m.ProducerID ||
		req.ProducerID == m.PrevProducerID && epochExhausted(req.Epoch)
	switch {
	case m.HasPending:
		fail(concurrentTransactions)
		return nil
	case given && !validPID:
		fail(producerFenced)
		return nil
	}
	switch m.State {
	case kafkalog.TxnPrepareAbort, kafkalog.TxnPrepareCommit:
		fail(concurrentTransactions)
		return nil
	case kafkalog.TxnCompleteAbort, kafkalog.TxnCompleteCommit, kafkalog.TxnEmpty:
		var t transit
		var err error
		if epochExhausted(m.Epoch) && (!given || req.Epoch == m.Epoch) {
			t, err = m.prepareRotation(env.AllocateProducerID(), req.TimeoutMs, given, env.Now())
		} else {
			var code int16
			if t, code, err = m.prepareIncrementEpoch(req.TimeoutMs, req.Epoch, given, env.Now()); code != 0 {
				fail(code)
				return nil
			}
		}
		if err != nil {
			return err
		}
		c.write(env, m, t, &pendingAppend{purpose: forInit, reply: r, answerAs: answerInit})
		return nil
	case kafkalog.TxnOngoing:
		// Abort the open transaction with a bumped epoch, which is never
		// handed to a client: the retry bumps it again.
		t, err := m.prepareFence(env.Now())
		if err != nil {
			return err
		}
		record(env, c.cfg.BrokerID, "transaction coordinator: %s: InitProducerId while a transaction is open: epoch %d fenced, the transaction aborted", m.ID, m.Epoch)
		return c.endTxnFrom(env, r, answerInitFenced, m.ID, m.ProducerID, t.Epoch, false, false, c.cfg.TransactionVersion)
	}
	return fmt.Errorf("txn: %s: InitProducerId in state %s", m.ID, m.State)
}
