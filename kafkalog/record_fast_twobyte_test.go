package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Records from offset 64 on, and timestamps 64 ms or more after the batch's
// first, carry two-byte deltas: the fast decoder reads them inline. The careful
// reader must agree on every one of them, at both ends of the two-byte range.
func TestTwoByteDeltasDecodeLikeTheCarefulReader(t *testing.T) {
	var b RecordBatch
	b.BaseOffset, b.BaseTimestamp, b.ProducerID, b.ProducerEpoch, b.BaseSequence = 1000, 1_700_000_000_000, -1, -1, -1
	for i := range 300 {
		ts := int64(i * 27) // crosses ±64 and reaches 8073 ms, still two bytes
		if i%2 == 1 {
			ts = -ts
		}
		b.Records = append(b.Records, Record{OffsetDelta: int32(i), TimestampDelta: ts, Value: []byte{byte(i)}})
	}
	b.LastOffsetDelta = 299
	raw := b.AppendTo(nil)
	got, _, err := ReadBatch(raw)
	if err != nil {
		t.Fatalf("ReadBatch: %v", err)
	}
	if diff := cmp.Diff(b.Records, got.Records); diff != "" {
		t.Errorf("records with two-byte deltas mismatch (-want +got):\n%s", diff)
	}
	checkFastMatchesCareful(t, raw[BatchHeaderLen:], int32(len(b.Records)))
}
