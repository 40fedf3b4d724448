package kafkalogkit

import (
	"math"
	"slices"

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
	b.BaseOffset = rapid.OneOf(rapid.Int64Range(0, 1<<40), rapid.SampledFrom([]int64{1<<31 - 1, 1 << 31, 1<<32 + 5, math.MaxInt64 - math.MaxInt32})).Draw(t, "baseOffset")
	b.PartitionLeaderEpoch = rapid.OneOf(rapid.Int32Range(-1, 1000), rapid.SampledFrom([]int32{math.MaxInt32})).Draw(t, "partitionLeaderEpoch")
	b.Attributes = kafkalog.Attributes(rapid.SampledFrom([]uint16{0, 0x08, 0x10, 0x30}).Draw(t, "attributes"))
	b.BaseTimestamp = rapid.OneOf(rapid.Int64Range(-1, 1<<42), rapid.SampledFrom([]int64{kafkalog.NoTimestamp, 0, math.MaxInt64 / 2})).Draw(t, "baseTimestamp")
	b.ProducerID = rapid.OneOf(rapid.Int64Range(-1, 1<<20), rapid.SampledFrom([]int64{-1, math.MaxInt64})).Draw(t, "producerId")
	b.ProducerEpoch = rapid.OneOf(rapid.Int16Range(-1, 100), rapid.SampledFrom([]int16{-1, math.MaxInt16})).Draw(t, "producerEpoch")
	b.BaseSequence = rapid.OneOf(rapid.Int32Range(-1, 1<<20), rapid.SampledFrom([]int32{-1, math.MaxInt32})).Draw(t, "baseSequence")
	n := rapid.IntRange(0, 5).Draw(t, "records")
	offsetDelta := int32(0)
	maxTs := b.BaseTimestamp
	for i := range n {
		if i > 0 {
			offsetDelta += rapid.OneOf(rapid.Int32Range(1, 3), rapid.SampledFrom([]int32{1 << 30})).Draw(t, "offsetGap")
		}
		r := drawRecord(t)
		r.OffsetDelta = offsetDelta
		if ts := b.BaseTimestamp + r.TimestampDelta; r.TimestampDelta >= 0 && ts >= b.BaseTimestamp {
			maxTs = max(maxTs, ts)
		}
		b.Records = append(b.Records, r)
	}
	b.LastOffsetDelta = offsetDelta
	b.MaxTimestamp = maxTs
	return b
}

func drawRecord(t *rapid.T) kafkalog.Record {
	r := kafkalog.Record{
		TimestampDelta: rapid.OneOf(rapid.Int64Range(0, 1000), rapid.Int64Range(-1<<40, 1<<40),
			rapid.SampledFrom([]int64{-1, math.MinInt32 - 1, math.MaxInt32 + 1, math.MinInt64, math.MaxInt64})).Draw(t, "timestampDelta"),
		Key:   drawBytes(t, "key"),
		Value: drawBytes(t, "value"),
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

// smallerRecord proposes smaller records than in's: a header fewer, a
// shorter or null key or value, deltas and attributes nearer zero.
func smallerRecord(in recordInput) []recordInput {
	var out []recordInput
	with := func(edit func(r *kafkalog.Record)) {
		r := *in.r
		r.Headers = slices.Clone(r.Headers)
		edit(&r)
		out = append(out, recordInput{&r, in.i})
	}
	for i := range in.r.Headers {
		with(func(r *kafkalog.Record) { r.Headers = slices.Delete(r.Headers, i, i+1) })
	}
	for _, field := range []func(r *kafkalog.Record) *[]byte{
		func(r *kafkalog.Record) *[]byte { return &r.Key },
		func(r *kafkalog.Record) *[]byte { return &r.Value },
	} {
		if b := *field(in.r); len(b) > 0 {
			with(func(r *kafkalog.Record) { *field(r) = b[:len(b)/2] })
			with(func(r *kafkalog.Record) { *field(r) = nil })
		}
	}
	if d := in.r.TimestampDelta; d != 0 {
		with(func(r *kafkalog.Record) { r.TimestampDelta = 0 })
		with(func(r *kafkalog.Record) { r.TimestampDelta = d / 2 })
	}
	if d := in.r.OffsetDelta; d != 0 {
		with(func(r *kafkalog.Record) { r.OffsetDelta = 0 })
		with(func(r *kafkalog.Record) { r.OffsetDelta = d / 2 })
	}
	if in.r.Attributes != 0 {
		with(func(r *kafkalog.Record) { r.Attributes = 0 })
	}
	return out
}

// smallerBatch proposes smaller batches than in's: no dst, a record fewer,
// the first record smaller, a header field at zero.
func smallerBatch(in batchInput) []batchInput {
	var out []batchInput
	if in.dst != nil {
		out = append(out, batchInput{nil, in.b})
	}
	with := func(edit func(b *kafkalog.RecordBatch)) {
		b := *in.b
		b.Records = slices.Clone(b.Records)
		edit(&b)
		out = append(out, batchInput{in.dst, &b})
	}
	for i := range in.b.Records {
		with(func(b *kafkalog.RecordBatch) { b.Records = slices.Delete(b.Records, i, i+1) })
	}
	if len(in.b.Records) > 0 {
		for _, r := range smallerRecord(recordInput{&in.b.Records[0], 0}) {
			with(func(b *kafkalog.RecordBatch) { b.Records[0] = *r.r })
		}
	}
	for _, field := range []func(b *kafkalog.RecordBatch) *int64{
		func(b *kafkalog.RecordBatch) *int64 { return &b.BaseOffset },
		func(b *kafkalog.RecordBatch) *int64 { return &b.BaseTimestamp },
		func(b *kafkalog.RecordBatch) *int64 { return &b.MaxTimestamp },
		func(b *kafkalog.RecordBatch) *int64 { return &b.ProducerID },
	} {
		if *field(in.b) != 0 {
			with(func(b *kafkalog.RecordBatch) { *field(b) = 0 })
		}
	}
	for _, field := range []func(b *kafkalog.RecordBatch) *int32{
		func(b *kafkalog.RecordBatch) *int32 { return &b.PartitionLeaderEpoch },
		func(b *kafkalog.RecordBatch) *int32 { return &b.LastOffsetDelta },
		func(b *kafkalog.RecordBatch) *int32 { return &b.BaseSequence },
	} {
		if *field(in.b) != 0 {
			with(func(b *kafkalog.RecordBatch) { *field(b) = 0 })
		}
	}
	if in.b.ProducerEpoch != 0 {
		with(func(b *kafkalog.RecordBatch) { b.ProducerEpoch = 0 })
	}
	if in.b.Attributes != 0 {
		with(func(b *kafkalog.RecordBatch) { b.Attributes = 0 })
	}
	return out
}
