package varint

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestVarint(t *testing.T) {
	kafkalogkit.TestVarint(t, kafkalogkit.VarintCodec{AppendVarint: AppendVarint}, bank.Varint()...)
}
