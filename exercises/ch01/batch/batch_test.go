package batch

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
)

func TestBatch(t *testing.T) {
	kafkalogkit.TestBatch(t, kafkalogkit.BatchEncoder{AppendRecord: AppendRecord, AppendBatch: AppendBatch})
}
