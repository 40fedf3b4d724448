package varint

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
)

func TestVarint(t *testing.T) {
	kafkalogkit.TestVarint(t, kafkalogkit.VarintCodec{AppendVarint: AppendVarint})
}
