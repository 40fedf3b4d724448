package kafkalogkit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// TestSegmentsLookLikeRealLogs checks the segments the suites draw against the
// library: every batch decodes, its header's offsets are the span's, the
// compacted and empty batches really hold fewer records than offsets, and the
// whole file recovers.
func TestSegmentsLookLikeRealLogs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := drawSegmentSpec(t)
		seg := buildSegment(spec)
		pos := 0
		for i, span := range seg.batches {
			b, n, err := kafkalog.ReadBatch(seg.log[pos:])
			if err != nil {
				t.Fatalf("batch %d (%s) does not decode: %v", i, span.what, err)
			}
			got := batchSpan{pos: pos, size: n, baseOffset: b.BaseOffset, lastOffset: b.LastOffset(), recordsCount: int(b.NumRecords), control: b.Attributes.IsControl(), what: span.what}
			if diff := cmp.Diff(span, got, cmp.AllowUnexported(batchSpan{})); diff != "" {
				t.Fatalf("batch %d (-model +decoded):\n%s", i, diff)
			}
			switch spec.batches[i].shape {
			case shapeCompacted:
				if len(b.Records) == 0 || int(b.LastOffsetDelta)+1 <= len(b.Records) {
					t.Fatalf("batch %d is compacted but holds %d records for %d offsets", i, len(b.Records), b.LastOffsetDelta+1)
				}
			case shapeCleanedEmpty:
				if len(b.Records) != 0 || b.ProducerID < 0 || b.Attributes.Compression() != kafkalog.CompressionNone {
					t.Fatalf("batch %d is not the cleaner's empty batch: %d records, producer %d, %s", i, len(b.Records), b.ProducerID, b.Attributes)
				}
			case shapeTxnMarker:
				if !b.Attributes.IsControl() || !b.Attributes.IsTransactional() || len(b.Records) != 1 {
					t.Fatalf("batch %d is not a transaction marker: %s, %d records", i, b.Attributes, len(b.Records))
				}
			}
			if want := spec.batches[i].codec; spec.batches[i].shape <= shapeCompacted && b.Attributes.Compression() != want {
				t.Fatalf("batch %d: codec %s, want %s", i, b.Attributes.Compression(), want)
			}
			pos += n
		}
		if r := kafkaRecover(seg.log, seg.baseOffset, seg.indexIntervalBytes); r.validBytes != len(seg.log) || len(r.batches) != len(seg.batches) {
			t.Fatalf("the recovery model keeps %d of %d bytes (%d of %d batches) of a whole segment", r.validBytes, len(seg.log), len(r.batches), len(seg.batches))
		} else if diff := cmp.Diff(seg.indexFile(0), r.index); diff != "" {
			t.Fatalf("the index recovery rebuilds is not the one appends wrote (-appended +rebuilt):\n%s", diff)
		}
	})
}
