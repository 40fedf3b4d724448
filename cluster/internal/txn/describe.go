package txn

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Described is a transactional id's state as DescribeTransactions answers
// it (handleDescribeTransactions).
type Described struct {
	Error      int16
	ProducerID int64
	Epoch      int16
	State      kafkalog.TxnState
	TimeoutMs  int32
	StartMs    int64
	Partitions []kafkalog.TopicPartition
}

// Describe answers DescribeTransactions for id: NOT_COORDINATOR if the
// coordinator does not coordinate it, TRANSACTIONAL_ID_NOT_FOUND if it
// knows nothing of it.
func (c *Coordinator) Describe(id string) Described {
	if id == "" {
		return Described{Error: kafkaerr.InvalidRequest}
	}
	m, code := c.metadataOf(id)
	switch {
	case code != 0:
		return Described{Error: code}
	case m == nil || m.State == kafkalog.TxnDead:
		return Described{Error: kafkaerr.TransactionalIDNotFound}
	}
	return Described{ProducerID: m.ProducerID, Epoch: m.Epoch, State: m.State, TimeoutMs: m.TimeoutMs, StartMs: m.StartMs,
		Partitions: slices.Clone(m.Partitions)}
}

// Listed is one transactional id as ListTransactions answers it.
type Listed struct {
	TransactionalID string
	ProducerID      int64
	State           kafkalog.TxnState
}

// List answers ListTransactions (listTransactionStates): the transactional
// ids it coordinates, by id, those in states and of producer ids pids when
// they are not empty, Dead ones never.
func (c *Coordinator) List(states []kafkalog.TxnState, pids []int64) []Listed {
	var out []Listed
	for _, m := range c.Transactions() {
		if m.State == kafkalog.TxnDead || len(states) > 0 && !slices.Contains(states, m.State) || len(pids) > 0 && !slices.Contains(pids, m.ProducerID) {
			continue
		}
		out = append(out, Listed{TransactionalID: m.ID, ProducerID: m.ProducerID, State: m.State})
	}
	return out
}
