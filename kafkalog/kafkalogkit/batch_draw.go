package kafkalogkit

import (
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// drawBatch draws an uncompressed batch as a broker holds it: mostly a
// producer's, whose header agrees with its records (lastOffsetDelta,
// maxTimestamp), and often what compaction and transactions leave: a
// compacted batch whose lastOffsetDelta lies past its last record
// (MemoryRecords.filterTo keeps the original last offset), the empty batch
// the cleaner keeps for a producer's state (DefaultRecordBatch.writeEmptyHeader:
// no records, baseTimestamp -1, the offsets and max timestamp kept), or a
// transaction's commit or abort marker.
func drawBatch(t *rapid.T) kafkalog.RecordBatch {
	switch rapid.SampledFrom([]string{"producer", "producer", "producer", "compacted", "cleanedEmpty", "txnMarker"}).Draw(t, "batchShape") {
	case "cleanedEmpty":
		b := drawProducerBatch(t)
		b.Records = nil
		b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionNone)
		b.BaseTimestamp = kafkalog.NoTimestamp
		b.LastOffsetDelta += rapid.Int32Range(0, 5).Draw(t, "removedRecords")
		return b
	case "txnMarker":
		kind := rapid.SampledFrom([]kafkalog.ControlRecordType{kafkalog.ControlCommit, kafkalog.ControlAbort}).Draw(t, "marker")
		b := kafkalog.NewEndTxnMarkerBatch(rapid.Int64Range(0, 1<<40).Draw(t, "baseOffset"), rapid.Int64Range(0, 1<<42).Draw(t, "timestamp"),
			rapid.Int64Range(0, 1<<20).Draw(t, "producerId"), int16(rapid.IntRange(0, 100).Draw(t, "producerEpoch")), kind,
			rapid.Int32Range(0, 1000).Draw(t, "coordinatorEpoch"))
		b.PartitionLeaderEpoch = rapid.Int32Range(-1, 1000).Draw(t, "partitionLeaderEpoch")
		return b
	case "compacted":
		b := drawProducerBatch(t)
		b.LastOffsetDelta += rapid.Int32Range(1, 4).Draw(t, "removedTailRecords")
		return b
	}
	return drawProducerBatch(t)
}

// drawProducerBatch draws an uncompressed batch whose header agrees with its
// records (lastOffsetDelta, maxTimestamp), as a producer and broker would
// write it; its offsets may skip, as after compaction.
func drawProducerBatch(t *rapid.T) kafkalog.RecordBatch {
	var b kafkalog.RecordBatch
	b.BaseOffset = rapid.Int64Range(0, 1<<40).Draw(t, "baseOffset")
	b.PartitionLeaderEpoch = rapid.Int32Range(-1, 1000).Draw(t, "partitionLeaderEpoch")
	b.Attributes = kafkalog.Attributes(rapid.SampledFrom([]uint16{0, 0x08, 0x10, 0x30}).Draw(t, "attributes"))
	b.BaseTimestamp = rapid.Int64Range(-1, 1<<42).Draw(t, "baseTimestamp")
	b.ProducerID = rapid.Int64Range(-1, 1<<20).Draw(t, "producerId")
	b.ProducerEpoch = int16(rapid.IntRange(-1, 100).Draw(t, "producerEpoch"))
	b.BaseSequence = rapid.Int32Range(-1, 1<<20).Draw(t, "baseSequence")
	n := rapid.IntRange(0, 5).Draw(t, "records")
	offsetDelta := int32(0)
	maxTs := b.BaseTimestamp
	for i := range n {
		if i > 0 {
			offsetDelta += rapid.Int32Range(1, 3).Draw(t, "offsetGap")
		}
		r := drawRecord(t)
		r.OffsetDelta = offsetDelta
		maxTs = max(maxTs, b.BaseTimestamp+r.TimestampDelta)
		b.Records = append(b.Records, r)
	}
	b.LastOffsetDelta = offsetDelta
	b.MaxTimestamp = maxTs
	return b
}

func drawRecord(t *rapid.T) kafkalog.Record {
	r := kafkalog.Record{
		TimestampDelta: rapid.OneOf(rapid.Int64Range(0, 1000), rapid.Int64Range(-1<<40, 1<<40)).Draw(t, "timestampDelta"),
		Key:            drawBytes(t, "key"),
		Value:          drawBytes(t, "value"),
	}
	for range rapid.IntRange(0, 2).Draw(t, "headers") {
		k := rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "headerKey")
		if k == nil {
			k = []byte{}
		}
		r.Headers = append(r.Headers, kafkalog.Header{Key: k, Value: drawBytes(t, "headerValue")})
	}
	return r
}

// drawBytes draws a null, empty or short byte string.
func drawBytes(t *rapid.T, label string) []byte {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		return []byte{}
	default:
		b := rapid.SliceOfN(rapid.Byte(), 1, 20).Draw(t, label)
		return b
	}
}
