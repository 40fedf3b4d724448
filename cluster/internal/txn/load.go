package txn

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// OnElection is TransactionCoordinator.onElection: the coordinator's broker
// leads __transaction_state partition p in leader epoch epoch, the
// coordinator epoch of its transactional ids. It loads the partition's
// records (the latest value of each id; a tombstone removes one) and
// completes the transactions that were prepared: their markers go out
// again, then their complete state.
func (c *Coordinator) OnElection(env Env, p, epoch int32) error {
	if e, ok := c.epochs[p]; ok && e == epoch {
		return nil
	}
	c.unload(env, p)
	c.epochs[p] = epoch
	loaded := map[string]kafkalog.TxnLogValue{}
	var order []string
	for _, r := range env.ReadLog(p) {
		id, err := kafkalog.ParseTxnLogKey(r.Key)
		if err != nil {
			continue
		}
		if r.Value == nil {
			delete(loaded, id)
			continue
		}
		v, err := kafkalog.ParseTxnLogValue(r.Value)
		if err != nil {
			continue
		}
		if _, ok := loaded[id]; !ok {
			order = append(order, id)
		}
		loaded[id] = v
	}
	n := 0
	for _, id := range order {
		if v, ok := loaded[id]; ok {
			c.txns[id] = fromLog(id, p, v)
			n++
		}
	}
	record(env, c.cfg.BrokerID, "transaction coordinator: elected for __transaction_state-%d at epoch %d, %d transactional id(s) loaded", p, epoch, n)
	for _, id := range slices.Sorted(maps.Keys(loaded)) {
		m := c.txns[id]
		if m.State != kafkalog.TxnPrepareCommit && m.State != kafkalog.TxnPrepareAbort {
			continue
		}
		complete, err := m.prepareComplete(env.Now())
		if err != nil {
			return err
		}
		record(env, c.cfg.BrokerID, "transaction coordinator: %s was %s: its markers go out again", id, m.State)
		c.jobs[id] = &markerJob{id: id, pid: m.ProducerID, epoch: m.Epoch, commit: m.State == kafkalog.TxnPrepareCommit, coordEpoch: epoch, complete: complete}
	}
	return c.sendMarkers(env)
}

// OnResignation is onResignation: the broker no longer leads partition p;
// its transactional ids and markers are forgotten, and the requests
// waiting on their writes answered NOT_COORDINATOR.
func (c *Coordinator) OnResignation(env Env, p int32) {
	if _, ok := c.epochs[p]; !ok {
		return
	}
	c.unload(env, p)
	record(env, c.cfg.BrokerID, "transaction coordinator: resigned __transaction_state-%d", p)
}

func (c *Coordinator) unload(env Env, p int32) {
	delete(c.epochs, p)
	for _, corr := range slices.Sorted(maps.Keys(c.appends)) {
		pa := c.appends[corr]
		if m := c.txns[pa.id]; m != nil && m.Partition == p {
			delete(c.appends, corr)
			c.answerError(env, pa, kafkaerr.NotCoordinator)
		}
	}
	for id, m := range c.txns {
		if m.Partition == p {
			delete(c.txns, id)
			delete(c.jobs, id)
		}
	}
}

// Partitions returns the __transaction_state partitions it coordinates and
// their coordinator epochs.
func (c *Coordinator) Partitions() map[int32]int32 { return maps.Clone(c.epochs) }
