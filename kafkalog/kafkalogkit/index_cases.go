package kafkalogkit

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// indexRealLogAnswers are lookups in segments shaped like real logs: what the
// log cleaner and transactions leave, and batches of every codec. A batch's
// last offset is its header's baseOffset + lastOffsetDelta, whatever its
// records say.
func indexRealLogAnswers() []indexCaseSpec {
	compacted := buildSegment(segmentSpec{baseOffset: 50, indexIntervalBytes: 4096, batches: []batchSpec{
		{records: 5, valueSize: 5, shape: shapeCompacted, removed: 0b11010}, // offsets 50..54, records 50 and 52 left
		{records: 2, valueSize: 5}, // 55..56
	}})
	empty := buildSegment(segmentSpec{baseOffset: 0, indexIntervalBytes: 0, batches: []batchSpec{
		{records: 5, valueSize: 5}, {records: 5, valueSize: 5}, // 0..9
		{records: 3, shape: shapeCleanedEmpty}, // 10..12, no records
		{records: 2, valueSize: 5},             // 13..14
	}})
	txn := buildSegment(segmentSpec{baseOffset: 0, indexIntervalBytes: 4096, batches: []batchSpec{
		{records: 5, valueSize: 5},                               // 0..4
		{records: 2, valueSize: 5, shape: shapeTransactional},    // 5..6
		{records: 1, shape: shapeTxnMarker},                      // 7, the commit marker
		{gap: 2, records: 2, valueSize: 5, shape: shapeProducer}, // 10..11
	}})
	codecs := segmentSpec{baseOffset: 1000, indexIntervalBytes: 0}
	for _, c := range []kafkalog.Compression{kafkalog.CompressionNone, kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd} {
		codecs.batches = append(codecs.batches, batchSpec{records: 4, valueSize: 30, codec: c})
	}
	withCodecs := buildSegment(codecs)
	cases := []indexCaseSpec{
		{"a compacted batch (offsets 50..54, only 50 and 52 left, lastOffsetDelta 4, recordsCount 2), then 55..56: read(53) finds the compacted batch", compacted, 0, 53},
		{"the same segment: read(54), the compacted batch's last offset although no record is left there", compacted, 0, 54},
		{"an empty batch the cleaner kept for its producer (offsets 10..12, recordsCount 0) between 0..9 and 13..14: read(11) finds it", empty, 0, 11},
		{"the same segment with its index preallocated (2 zero slots): read(10) finds the empty batch", empty, 2, 10},
		{"a transaction (offsets 5..6) and its commit marker at 7, then 10..11: read(7) finds the marker's control batch", txn, 0, 7},
		{"the same segment: read(8), an offset in the gap after the marker, finds the batch at 10", txn, 0, 8},
	}
	for i, b := range withCodecs.batches {
		cases = append(cases, indexCaseSpec{fmt.Sprintf("one batch of 4 records per codec (none, gzip, snappy, lz4, zstd) at base 1000, index.interval.bytes 0: read(%d) finds the %s batch", b.baseOffset+2, codecs.batches[i].codec), withCodecs, 0, b.baseOffset + 2})
	}
	return cases
}
