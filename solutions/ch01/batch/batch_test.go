package batch

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestBatch(t *testing.T) {
	kafkalogkit.TestBatch(t, kafkalogkit.BatchEncoder{AppendRecord: AppendRecord, AppendBatch: AppendBatch}, bank.Batch()...)
}
