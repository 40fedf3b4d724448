package index

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogtest"
)

func TestIndex(t *testing.T) {
	kafkalogtest.TestIndex(t, kafkalogtest.IndexLookup{LookupIndex: LookupIndex, FindBatch: FindBatch})
}
