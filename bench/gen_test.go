package bench

import (
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// drawBytes draws a key, value or header value: null, empty, or 1-40 random bytes.
func drawBytes(t *rapid.T, label string) []byte {
	switch rapid.IntRange(0, 3).Draw(t, label+" kind (0 null, 1 empty, else bytes)") {
	case 0:
		return nil
	case 1:
		return []byte{}
	}
	return rapid.SliceOfN(rapid.Byte(), 1, 40).Draw(t, label)
}

// drawAttributes draws the batch attributes of an uncompressed batch: any mix of
// timestamp type, transactional, control and delete-horizon bits.
func drawAttributes(t *rapid.T) kafkalog.Attributes {
	tsType := kafkalog.CreateTime
	if rapid.Bool().Draw(t, "LogAppendTime") {
		tsType = kafkalog.LogAppendTime
	}
	a := kafkalog.NewAttributes(kafkalog.CompressionNone, tsType,
		rapid.Bool().Draw(t, "transactional"), rapid.Bool().Draw(t, "control"))
	if rapid.Bool().Draw(t, "delete horizon") {
		a = a.WithDeleteHorizon()
	}
	return a
}

// drawRecord draws record i; sequential offsets give delta i, otherwise any
// int32 (offsets after compaction, or nonsense a decoder must still carry).
func drawRecord(t *rapid.T, i int, sequential bool) kafkalog.Record {
	r := kafkalog.Record{
		Attributes:     rapid.Int8().Draw(t, "record attributes"),
		TimestampDelta: rapid.Int64().Draw(t, "timestampDelta"),
		OffsetDelta:    int32(i),
		Key:            drawBytes(t, "key"),
		Value:          drawBytes(t, "value"),
	}
	if !sequential {
		r.OffsetDelta = rapid.Int32().Draw(t, "offsetDelta")
	}
	if rapid.IntRange(0, 3).Draw(t, "small timestamp delta (0 = any int64)") != 0 {
		r.TimestampDelta = int64(rapid.IntRange(-200, 20000).Draw(t, "timestampDelta small"))
	}
	for range rapid.IntRange(0, 3).Draw(t, "header count") {
		r.Headers = append(r.Headers, kafkalog.Header{
			Key:   []byte(rapid.StringN(0, 12, -1).Draw(t, "header key")),
			Value: drawBytes(t, "header value"),
		})
	}
	return r
}

// drawBatch draws an uncompressed batch of 0-50 records with arbitrary header
// fields (producer fields, sequence, leader epoch, timestamps).
func drawBatch(t *rapid.T) *kafkalog.RecordBatch {
	n := rapid.IntRange(0, 50).Draw(t, "record count")
	sequential := rapid.Bool().Draw(t, "sequential offset deltas")
	b := &kafkalog.RecordBatch{
		BatchHeader: kafkalog.BatchHeader{
			BaseOffset:           rapid.Int64().Draw(t, "baseOffset"),
			PartitionLeaderEpoch: rapid.Int32().Draw(t, "partitionLeaderEpoch"),
			Attributes:           drawAttributes(t),
			LastOffsetDelta:      int32(n - 1),
			BaseTimestamp:        rapid.Int64().Draw(t, "baseTimestamp"),
			MaxTimestamp:         rapid.Int64().Draw(t, "maxTimestamp"),
			ProducerID:           rapid.Int64Range(-1, 1<<40).Draw(t, "producerId"),
			ProducerEpoch:        rapid.Int16().Draw(t, "producerEpoch"),
			BaseSequence:         rapid.Int32().Draw(t, "baseSequence"),
		},
	}
	for i := range n {
		b.Records = append(b.Records, drawRecord(t, i, sequential))
	}
	if !sequential {
		b.LastOffsetDelta = rapid.Int32().Draw(t, "lastOffsetDelta")
	}
	return b
}
