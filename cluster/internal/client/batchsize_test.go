package client

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestBatchSizeIsTheEncodedBatch checks the producer's estimate of a
// one-record batch (ProducerBatch.estimatedSizeInBytes, what batch.size
// and the uniform sticky partitioner count) against the batch the
// cluster's log encodes for that record, byte for byte.
func TestBatchSizeIsTheEncodedBatch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.StringN(0, 300, -1).Draw(t, "key")
		value := rapid.StringN(0, 20000, -1).Draw(t, "value")
		null := rapid.Bool().Draw(t, "null")
		e := replica.Entry{Value: []byte(value)}
		if null {
			e.Value = nil
		}
		if key != "" {
			e.Key = []byte(key)
		}
		want := len(replicalog.AppendBatch(nil, []replica.Entry{e}, 1714521600000))
		if got := batchSize(key, value, null); got != want {
			t.Fatalf("batchSize(%d-byte key, %d-byte value, null %v) = %d, the encoded batch is %d bytes", len(key), len(value), null, got, want)
		}
	})
}

// TestVarintSize checks the zig-zag varint lengths at their boundaries.
func TestVarintSize(t *testing.T) {
	for _, tt := range []struct{ n, want int }{
		{0, 1}, {-1, 1}, {63, 1}, {-64, 1}, {64, 2}, {-65, 2}, {8191, 2}, {8192, 3}, {1 << 20, 4}, {1 << 30, 5},
	} {
		if got := varintSize(tt.n); got != tt.want {
			t.Errorf("varintSize(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}
