package batch

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogtest"
)

func TestBatch(t *testing.T) {
	kafkalogtest.TestBatch(t, kafkalogtest.BatchEncoder{AppendRecord: AppendRecord, AppendBatch: AppendBatch})
}
