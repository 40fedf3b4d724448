package index

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestIndex(t *testing.T) {
	kafkalogkit.TestIndex(t, kafkalogkit.IndexLookup{LookupIndex: LookupIndex, FindBatch: FindBatch}, bank.Index()...)
}
