package varint

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogtest"
)

func TestVarint(t *testing.T) {
	kafkalogtest.TestVarint(t, kafkalogtest.VarintCodec{AppendVarint: AppendVarint})
}
