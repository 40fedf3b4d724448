package txn

import (
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// purpose says what a write to __transaction_state is for, and so what
// happens when it is acknowledged or fails (the callbacks Kafka passes to
// appendTransactionToLog).
type purpose uint8

const (
	// forInit: InitProducerId's new epoch; the answer carries it.
	forInit purpose = iota
	// forAdd: AddPartitionsToTxn, AddOffsetsToTxn, or a leader adding its
	// partition (transaction.version 2).
	forAdd
	// forEnd: EndTxn's PrepareCommit or PrepareAbort, or an abort the
	// coordinator starts (a fenced producer's, a timed out transaction's);
	// once written the markers go out.
	forEnd
	// forComplete: CompleteCommit or CompleteAbort, once every marker is
	// written.
	forComplete
)

// pendingAppend is one write in flight.
type pendingAppend struct {
	id       string
	epoch    int32 // the coordinator epoch it was written under
	transit  transit
	purpose  purpose
	reply    reply
	answerAs answerKind
	// partitions are what forAdd added (its answer lists them).
	partitions []kafkalog.TopicPartition
	// fence is set on an abort that fences the producer (its epoch was
	// bumped in memory before the write).
	fence bool
	// commit is what forEnd ends the transaction with.
	commit bool
}

// answerKind is the answer an append's requester waits for.
type answerKind uint8

const (
	answerInit answerKind = iota
	answerAdd
	answerOffsets
	answerEnd
	// answerInitFenced: the InitProducerId whose fencing abort this is,
	// told CONCURRENT_TRANSACTIONS once it is written (it retries).
	answerInitFenced
	answerNone
)

// write sends transit t of m to the log for purpose p (appendTransactionToLog),
// answering the requester with the append's error at once if it cannot be
// started.
func (c *Coordinator) write(env Env, m *Metadata, t transit, pa *pendingAppend) {
	epoch, ok := c.epochs[m.Partition]
	if !ok {
		m.HasPending = false
		c.answerError(env, pa, notCoordinator)
		return
	}
	pa.id, pa.epoch, pa.transit = m.ID, epoch, t
	corr := c.nextCorr()
	v := int16(0)
	if c.cfg.TransactionVersion >= 1 {
		v = 1 // TransactionVersion.transactionLogValueVersion
	}
	key := kafkalog.AppendTxnLogKey(nil, m.ID)
	value := kafkalog.AppendTxnLogValue(nil, t.logValue(v))
	if code := env.AppendLog(m.Partition, corr, key, value); code != 0 {
		c.appendFailed(env, pa, appendError(code))
		return
	}
	c.appends[corr] = pa
}

// appended takes the leader's answer to a write.
func (c *Coordinator) appended(env Env, corr int64, code int16) error {
	pa, ok := c.appends[corr]
	if !ok {
		return nil
	}
	delete(c.appends, corr)
	if code != 0 {
		c.appendFailed(env, pa, appendError(code))
		return nil
	}
	m := c.txns[pa.id]
	if m == nil || c.epochs[m.Partition] != pa.epoch {
		// the partition moved away (and maybe back) meanwhile
		c.answerError(env, pa, notCoordinator)
		return nil
	}
	m.complete(pa.transit)
	return c.written(env, m, pa)
}

// appendFailed resets the pending state (unless a completion will retry
// it) and answers the requester.
func (c *Coordinator) appendFailed(env Env, pa *pendingAppend, code int16) {
	m := c.txns[pa.id]
	if m != nil && c.epochs[m.Partition] == pa.epoch {
		if pa.purpose == forComplete && code == kafkaerr.CoordinatorNotAvailable {
			// the job writes it again (retryOnError)
			if j := c.jobs[pa.id]; j != nil {
				j.completing, j.retryComplete = false, true
			}
			return
		}
		m.HasPending = false
		if pa.fence {
			// The epoch went up in memory and the write failed: the next
			// fence does not bump it again (hasFailedEpochFence).
			m.failedFence = true
		}
	}
	if pa.purpose == forComplete {
		delete(c.jobs, pa.id) // NOT_COORDINATOR: the next coordinator completes it
		return
	}
	record(env, c.cfg.BrokerID, "transaction coordinator: writing %s of %s failed: %s", pa.transit.State, pa.id, kafkaerr.Name(code))
	c.answerError(env, pa, code)
}

// answerError answers the requester of pa with code.
func (c *Coordinator) answerError(env Env, pa *pendingAppend, code int16) {
	switch pa.answerAs {
	case answerInit, answerInitFenced:
		c.send(env, pa.reply, InitProducerIDResponse{Corr: pa.reply.corr, Error: code, ProducerID: noProducerID, Epoch: noProducerID})
	case answerAdd:
		c.send(env, pa.reply, AddPartitionsResponse{Corr: pa.reply.corr, Partitions: allPartitions(pa.partitions, code)})
	case answerOffsets:
		c.send(env, pa.reply, AddOffsetsResponse{Corr: pa.reply.corr, Error: code})
	case answerEnd:
		c.send(env, pa.reply, EndTxnResponse{Corr: pa.reply.corr, Error: code, ProducerID: noProducerID, Epoch: noProducerID})
	}
}

// written acts on a write the ISR acknowledged.
func (c *Coordinator) written(env Env, m *Metadata, pa *pendingAppend) error {
	switch pa.purpose {
	case forInit:
		record(env, c.cfg.BrokerID, "transaction coordinator: %s initialized: producer id %d, epoch %d (%s-%d)", m.ID, m.ProducerID, m.Epoch, "__transaction_state", m.Partition)
		c.send(env, pa.reply, InitProducerIDResponse{Corr: pa.reply.corr, ProducerID: m.ProducerID, Epoch: m.Epoch})
	case forAdd:
		record(env, c.cfg.BrokerID, "transaction coordinator: %s Ongoing with %s", m.ID, PartitionsText(m.Partitions))
		if pa.answerAs == answerOffsets {
			c.send(env, pa.reply, AddOffsetsResponse{Corr: pa.reply.corr})
		} else {
			c.send(env, pa.reply, AddPartitionsResponse{Corr: pa.reply.corr, Partitions: allPartitions(pa.partitions, 0)})
		}
	case forEnd:
		return c.prepared(env, m, pa)
	case forComplete:
		delete(c.jobs, m.ID)
		record(env, c.cfg.BrokerID, "transaction coordinator: %s %s (producer id %d, epoch %d)", m.ID, m.State, m.ProducerID, m.Epoch)
	}
	return nil
}

// PartitionsText prints partitions as "topic-0, topic-1".
func PartitionsText(ps []kafkalog.TopicPartition) string {
	s := ""
	for i, tp := range ps {
		if i > 0 {
			s += ", "
		}
		s += tp.String()
	}
	return s
}
