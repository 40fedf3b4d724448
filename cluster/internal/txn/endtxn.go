package txn

import (
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// endTxn handles EndTxn from a client (handleEndTransaction).
func (c *Coordinator) endTxn(env Env, r reply, id string, pid int64, epoch int16, commit, fromClient bool, clientTV int16) error {
	return c.endTxnFrom(env, r, answerEnd, id, pid, epoch, commit, fromClient, clientTV)
}

// endTxnFrom is TransactionCoordinator.endTransaction: a commit or abort
// from a client, or an abort the coordinator starts (fromClient false: a
// fenced producer's open transaction, a timed out one), checked against
// the state, then PrepareCommit or PrepareAbort written; once it is, the
// requester is answered and the markers go out. With transaction.version
// 2 (clientTV) the epoch goes up, and a retry is told apart from the next
// transaction's end by the epoch it carries (Kafka 4.0, KIP-890); an
// abort at the current epoch with no transaction open (nothing was added:
// the producer's records never reached a leader) is written all the
// same, PrepareAbort of no partition, so that the epoch goes up, as Kafka
// 4.1's coordinator accepts it (KIP-890 part 2: a producer may always
// abort, and its next transaction must not share the epoch of records a
// leader may still add).
func (c *Coordinator) endTxnFrom(env Env, r reply, as answerKind, id string, pid int64, epoch int16, commit, fromClient bool, clientTV int16) error {
	pa := &pendingAppend{purpose: forEnd, reply: r, answerAs: as, commit: commit}
	if id == "" {
		c.answerError(env, pa, kafkaerr.InvalidRequest)
		return nil
	}
	m, code := c.metadataOf(id)
	if code != 0 {
		c.answerError(env, pa, code)
		return nil
	}
	if m == nil {
		c.answerError(env, pa, invalidProducerIDMapping)
		return nil
	}
	fencing := m.HasPending && m.Pending == kafkalog.TxnPrepareEpochFence
	v2 := !fencing && m.ClientTV >= 2
	retryOnOverflow := v2 && m.PrevProducerID == pid && epoch == math.MaxInt16-1 && m.Epoch == 0
	retryOnBump := v2 && m.Epoch == epoch+1
	retry := retryOnBump || retryOnOverflow
	// a transaction.version 2 abort of a transaction nothing was added to
	// (at the current epoch, in a state where no transaction is open)
	// bumps the epoch all the same: the producer's records may have
	// reached no leader, or reached one whose add failed
	emptyAbort := clientTV >= 2 && !fencing && !commit && epoch == m.Epoch && m.ProducerID == pid &&
		(m.State == kafkalog.TxnEmpty || m.State == kafkalog.TxnCompleteCommit || m.State == kafkalog.TxnCompleteAbort)
	var validEpoch bool
	switch {
	case !v2:
		validEpoch = (!fromClient || epoch == m.Epoch) && epoch >= m.Epoch
	case m.State == kafkalog.TxnPrepareCommit || m.State == kafkalog.TxnPrepareAbort:
		validEpoch = retryOnBump
	case m.State == kafkalog.TxnCompleteCommit || m.State == kafkalog.TxnCompleteAbort:
		validEpoch = retry || emptyAbort
	default:
		validEpoch = epoch == m.Epoch
	}
	okAsRetry := func() {
		switch as {
		case answerEnd:
			c.send(env, r, EndTxnResponse{Corr: r.corr, ProducerID: m.ProducerID, Epoch: m.Epoch})
		case answerInitFenced:
			c.answerError(env, pa, concurrentTransactions)
		}
	}
	switch {
	case m.ProducerID != pid && !retryOnOverflow:
		code = invalidProducerIDMapping
	case !validEpoch:
		code = producerFenced
	case m.HasPending && !fencing:
		code = concurrentTransactions
	case m.State == kafkalog.TxnOngoing, emptyAbort && !retry:
		return c.prepareEnd(env, m, pa, epoch, commit, fencing, clientTV)
	case m.State == kafkalog.TxnCompleteCommit && commit, m.State == kafkalog.TxnCompleteAbort && !commit:
		okAsRetry()
		return nil
	case m.State == kafkalog.TxnPrepareCommit && commit, m.State == kafkalog.TxnPrepareAbort && !commit:
		code = concurrentTransactions
	case m.State == kafkalog.TxnDead || m.State == kafkalog.TxnPrepareEpochFence:
		return fmt.Errorf("txn: found transactionalId %s with state %s", id, m.State)
	default:
		code = invalidTxnState
	}
	c.answerError(env, pa, code)
	return nil
}

// prepareEnd writes PrepareCommit or PrepareAbort (prepareAbortOrCommit):
// with transaction.version 2 at the next epoch, or at epoch 0 of a new
// producer id once the epochs ran out (TransactionMetadata.isEpochExhausted);
// the abort that follows a fence takes the fence's epoch.
func (c *Coordinator) prepareEnd(env Env, m *Metadata, pa *pendingAppend, epoch int16, commit, fencing bool, clientTV int16) error {
	next := kafkalog.TxnPrepareAbort
	if commit {
		next = kafkalog.TxnPrepareCommit
	}
	nextPID := int64(noProducerID)
	if clientTV >= 2 && !fencing && epochExhausted(m.Epoch) {
		nextPID = env.AllocateProducerID()
	}
	if !commit && fencing {
		// the fence's bumped epoch becomes the transaction's
		pa.fence = true
		m.HasPending, m.Epoch, m.LastEpoch = false, epoch, noProducerID
	}
	t, err := m.prepareEnd(next, clientTV, nextPID, env.Now())
	if err != nil {
		return err
	}
	c.write(env, m, t, pa)
	return nil
}

// prepared acts on a written PrepareCommit or PrepareAbort: the requester
// hears NONE (with the next epoch for transaction.version 2; the
// InitProducerId that fenced, CONCURRENT_TRANSACTIONS), the complete state
// to write once the markers are is prepared, and the markers go out.
func (c *Coordinator) prepared(env Env, m *Metadata, pa *pendingAppend) error {
	verb := "PrepareAbort"
	if pa.commit {
		verb = "PrepareCommit"
	}
	record(env, c.cfg.BrokerID, "transaction coordinator: %s %s (producer id %d, epoch %d) of %s", m.ID, verb, m.ProducerID, m.Epoch, PartitionsText(m.Partitions))
	complete, err := m.prepareComplete(env.Now())
	if err != nil {
		return err
	}
	switch pa.answerAs {
	case answerEnd:
		// the producer id and epoch the transaction completes with: after
		// an epoch overflow, the new producer id at epoch 0 (KIP-890)
		c.send(env, pa.reply, EndTxnResponse{Corr: pa.reply.corr, ProducerID: complete.ProducerID, Epoch: complete.Epoch})
	case answerInitFenced:
		c.answerError(env, pa, concurrentTransactions)
	}
	c.jobs[m.ID] = &markerJob{id: m.ID, pid: m.ProducerID, epoch: m.Epoch, commit: pa.commit, coordEpoch: pa.epoch, complete: complete}
	return c.sendMarkers(env)
}
