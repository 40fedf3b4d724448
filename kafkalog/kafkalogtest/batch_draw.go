package kafkalogtest

import (
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// drawBatch draws an uncompressed batch whose header agrees with its records
// (lastOffsetDelta, maxTimestamp), as a producer and broker would write it.
func drawBatch(t *rapid.T) kafkalog.RecordBatch {
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
