package readcommitted

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestReadCommitted(t *testing.T) {
	kafkalogkit.TestReadCommitted(t, kafkalogkit.ReadCommitted{Deliver: deliver}, bank.ReadCommitted()...)
}

// deliver calls Deliver with the suite's types, and hands the suite back
// the list as Deliver left it.
func deliver(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalogkit.AbortedTransaction) []int64 {
	list := make([]AbortedTransaction, len(aborted))
	for i, a := range aborted {
		list[i] = AbortedTransaction(a)
	}
	got := Deliver(fetchOffset, batches, list)
	for i, a := range list { // what Deliver did to the list, the suite sees
		aborted[i] = kafkalogkit.AbortedTransaction(a)
	}
	return got
}
