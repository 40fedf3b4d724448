package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// listTransactions answers ListTransactions (KIP-664,
// TransactionStateManager.listTransactionStates): the transactional ids
// b's coordinator coordinates, filtered by state and producer id, and,
// from v1 (KIP-994), by how long their transaction has been open. A state
// filter naming no state is answered with nothing, as Kafka's is.
func (b *Broker) listTransactions(env Env, req *kmsg.ListTransactionsRequest) *kmsg.ListTransactionsResponse {
	resp := req.ResponseKind().(*kmsg.ListTransactionsResponse)
	if b.txn == nil {
		resp.ErrorCode = kafkaerr.CoordinatorNotAvailable
		return resp
	}
	var states []kafkalog.TxnState
	for _, name := range req.StateFilters {
		st, ok := kafkalog.ParseTxnState(name)
		if !ok {
			resp.UnknownStateFilters = append(resp.UnknownStateFilters, name)
			continue
		}
		states = append(states, st)
	}
	if len(req.StateFilters) > 0 && len(states) == 0 {
		return resp
	}
	for _, l := range b.txn.List(states, req.ProducerIDFilters) {
		if req.DurationFilterMillis >= 0 && req.Version >= 1 {
			m, _ := b.txn.Transaction(l.TransactionalID)
			if m.State != kafkalog.TxnOngoing || env.Now()-m.StartMs < req.DurationFilterMillis {
				continue
			}
		}
		ts := kmsg.NewListTransactionsResponseTransactionState()
		ts.TransactionalID, ts.ProducerID, ts.TransactionState = l.TransactionalID, l.ProducerID, l.State.String()
		resp.TransactionStates = append(resp.TransactionStates, ts)
	}
	return resp
}
