package txn

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// abortTimedOut aborts, with a bumped epoch, each transaction open for
// longer than its transaction.timeout.ms and with no change in flight
// (abortTimedOutTransactions): the producer's next request is fenced.
func (c *Coordinator) abortTimedOut(env Env) error {
	for _, id := range slices.Sorted(maps.Keys(c.txns)) {
		m := c.txns[id]
		if m.State != kafkalog.TxnOngoing || m.HasPending || m.StartMs+int64(m.TimeoutMs) >= env.Now() {
			continue
		}
		t, err := m.prepareFence(env.Now())
		if err != nil {
			return err
		}
		record(env, c.cfg.BrokerID, "transaction coordinator: %s: the transaction started at %d ms timed out (transaction.timeout.ms=%d): fenced at epoch %d and aborted",
			id, m.StartMs, m.TimeoutMs, t.Epoch)
		if err := c.endTxnFrom(env, reply{none: true}, answerNone, id, m.ProducerID, t.Epoch, false, false, c.cfg.TransactionVersion); err != nil {
			return err
		}
	}
	return nil
}
