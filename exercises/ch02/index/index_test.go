package index

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
)

func TestIndex(t *testing.T) {
	kafkalogkit.TestIndex(t, kafkalogkit.IndexLookup{LookupIndex: LookupIndex, FindBatch: FindBatch})
}
