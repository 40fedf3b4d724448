package kafkalogkit

import (
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// drawSegmentSpec draws a segment as a broker's disk holds it: any base
// offset and index.interval.bytes, and up to 24 batches drawn by
// drawBatchSpec.
func drawSegmentSpec(t *rapid.T) segmentSpec {
	s := segmentSpec{
		baseOffset:         rapid.SampledFrom([]int64{0, 45, 1000, 1 << 33}).Draw(t, "baseOffset"),
		indexIntervalBytes: rapid.SampledFrom([]int{0, 100, 250, 4096}).Draw(t, "indexIntervalBytes"),
	}
	for range rapid.IntRange(0, 24).Draw(t, "batches") {
		s.batches = append(s.batches, drawBatchSpec(t, 5, 60))
	}
	return s
}

// drawBatchSpec draws one batch of a real log: mostly a producer's, and
// often what compaction and transactions leave (compacted batches whose
// offsets skip and whose lastOffsetDelta lies past the records, the empty
// batches the cleaner keeps for a producer's state, transactional batches
// and their commit or abort markers), with every codec. The gap before it
// is the offsets a cleaner removed with whole batches.
func drawBatchSpec(t *rapid.T, maxRecords, maxValueSize int) batchSpec {
	b := batchSpec{
		gap:       rapid.IntRange(0, 3).Draw(t, "offsetGap"),
		records:   rapid.IntRange(1, maxRecords).Draw(t, "records"),
		valueSize: rapid.IntRange(0, maxValueSize).Draw(t, "valueSize"),
		shape: rapid.SampledFrom([]batchShape{shapeProducer, shapeProducer, shapeProducer, shapeTransactional,
			shapeCompacted, shapeCompacted, shapeCleanedEmpty, shapeTxnMarker}).Draw(t, "batchShape"),
		codec: rapid.SampledFrom([]kafkalog.Compression{kafkalog.CompressionNone, kafkalog.CompressionNone, kafkalog.CompressionNone,
			kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd}).Draw(t, "codec"),
	}
	if b.shape == shapeCompacted {
		b.removed = rapid.Uint32Range(0, 1<<maxRecords-1).Draw(t, "removedRecords")
	}
	return b
}

func (s batchShape) String() string {
	return [...]string{"producer", "transactional", "compacted", "cleaned-empty", "txn-marker"}[s]
}
