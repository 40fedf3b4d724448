package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeTransactions answers DescribeTransactions (KIP-664,
// TransactionCoordinator.handleDescribeTransactions): each transactional
// id's state at b's coordinator, NOT_COORDINATOR for one it does not
// coordinate, TRANSACTIONAL_ID_NOT_FOUND for one it knows nothing of.
func (b *Broker) describeTransactions(req *kmsg.DescribeTransactionsRequest) *kmsg.DescribeTransactionsResponse {
	resp := req.ResponseKind().(*kmsg.DescribeTransactionsResponse)
	for _, id := range req.TransactionalIDs {
		ts := kmsg.NewDescribeTransactionsResponseTransactionState()
		ts.TransactionalID = id
		d := b.txn.Describe(id)
		ts.ErrorCode = d.Error
		if d.Error == 0 {
			ts.State, ts.TimeoutMillis, ts.StartTimestamp, ts.ProducerID, ts.ProducerEpoch = d.State.String(), d.TimeoutMs, d.StartMs, d.ProducerID, d.Epoch
			var topic *kmsg.DescribeTransactionsResponseTransactionStateTopic
			for _, k := range d.Partitions {
				if topic == nil || topic.Topic != k.Topic {
					ts.Topics = append(ts.Topics, kmsg.NewDescribeTransactionsResponseTransactionStateTopic())
					topic = &ts.Topics[len(ts.Topics)-1]
					topic.Topic = k.Topic
				}
				topic.Partitions = append(topic.Partitions, k.Partition)
			}
		}
		resp.TransactionStates = append(resp.TransactionStates, ts)
	}
	return resp
}
