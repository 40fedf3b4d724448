package validator

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

var tp = kafkalog.TopicPartition{Topic: "t", Partition: 0}

// batch encodes records (nil key or value allowed) at timestamps ts.
func batch(keys [][]byte, ts []int64, logAppendTime bool) []byte {
	var b kafkalog.RecordBatch
	typ := kafkalog.CreateTime
	if logAppendTime {
		typ = kafkalog.LogAppendTime
	}
	b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, typ, false, false)
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, kafkalog.NoSequence
	for i, k := range keys {
		b.AppendRecord(int64(i), ts[i], k, []byte("v"))
	}
	return b.AppendTo(nil)
}

// TestRecordErrors: each record is checked as Kafka 3.7's
// LogValidator.validateRecord checks it, and the batch is refused with the
// code and the message processRecordErrors gives.
func TestRecordErrors(t *testing.T) {
	compact, bounded := kafkalog.DefaultConfig(), kafkalog.DefaultConfig()
	compact.CleanupPolicy = kafkalog.CleanupPolicyCompact
	bounded.MessageTimestampBeforeMaxMs, bounded.MessageTimestampAfterMaxMs = 1000, 1000
	logAppend := kafkalog.DefaultConfig()
	logAppend.MessageTimestampType = kafkalog.LogAppendTime
	tests := []struct {
		name     string
		raw      []byte
		cfg      kafkalog.Config
		code     int16
		msg      string
		relative []int32
	}{
		{"a valid batch", batch([][]byte{[]byte("k")}, []int64{5000}, false), compact, 0, "", nil},
		{"a keyless record in a compacted topic", batch([][]byte{[]byte("k"), nil, nil}, []int64{5000, 5000, 5000}, false), compact, kafkaerr.InvalidRecord,
			"One or more records have been rejected due to 2 record errors in total, and only showing the first three errors at most: " +
				"[RecordError(batchIndex=1, message='Compacted topic cannot accept message without key in topic partition t-0.'), " +
				"RecordError(batchIndex=2, message='Compacted topic cannot accept message without key in topic partition t-0.')]", []int32{1, 2}},
		{"a timestamp outside the topic's bounds", batch([][]byte{nil, nil}, []int64{5000, 9000}, false), bounded, kafkaerr.InvalidTimestamp,
			"One or more records have been rejected due to invalid timestamp", []int32{1}},
		// validateTimestamp checks a CreateTime topic's timestamps first:
		// a batch that says LogAppendTime passes there with good ones
		{"LogAppendTime said to a CreateTime topic", batch([][]byte{nil}, []int64{5000}, true), kafkalog.DefaultConfig(), 0, "", nil},
		{"LogAppendTime said to a LogAppendTime topic", batch([][]byte{nil}, []int64{5000}, true), logAppend, kafkaerr.InvalidTimestamp,
			"One or more records have been rejected due to invalid timestamp", []int32{0}},
		{"bytes that do not decode", []byte{0, 1, 2}, kafkalog.DefaultConfig(), kafkaerr.CorruptMessage, "", nil},
	}
	for _, tc := range tests {
		code, msg, errs := RecordErrors(tc.raw, tc.cfg, tp, 5000)
		var relative []int32
		for _, e := range errs {
			relative = append(relative, e.RelativeOffset)
		}
		if diff := cmp.Diff([]any{tc.code, tc.msg, tc.relative}, []any{code, msg, relative}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestBatchProblem: a client's batch header is refused as Kafka 3.7's
// LogValidator.validateBatch refuses it, with its message.
func TestBatchProblem(t *testing.T) {
	ok := kafkalog.BatchHeader{NumRecords: 3, LastOffsetDelta: 2, ProducerID: -1, BaseSequence: -1}
	tests := []struct {
		name string
		edit func(h *kafkalog.BatchHeader)
		want string
	}{
		{"a valid header", func(*kafkalog.BatchHeader) {}, ""},
		{"offsets that run backwards", func(h *kafkalog.BatchHeader) { h.LastOffsetDelta = -1 }, "Batch has an invalid offset range: [0, -1] in topic partition t-0"},
		{"no records", func(h *kafkalog.BatchHeader) { h.NumRecords, h.LastOffsetDelta = 0, 0 }, "Invalid reported count for record batch: 0 in topic partition t-0"},
		{"a count that disagrees with the offsets", func(h *kafkalog.BatchHeader) { h.NumRecords = 2 }, "Inconsistent batch offset range [0, 2] and count of records 2 in topic partition t-0"},
		{"a control batch", func(h *kafkalog.BatchHeader) {
			h.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, true)
		}, "Clients are not allowed to write control records in topic partition t-0"},
		{"an idempotent batch without a sequence", func(h *kafkalog.BatchHeader) { h.ProducerID = 7 }, "Invalid sequence number -1 in record batch with producerId 7 in topic partition t-0"},
	}
	for _, tc := range tests {
		h := ok
		tc.edit(&h)
		if got := BatchProblem(&h, tp.String()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTimestampBounds: the bounds are before.max.ms and after.max.ms around
// the leader's clock, difference.max.ms standing for both while they are
// at their default (Kafka 3.7's LogConfig).
func TestTimestampBounds(t *testing.T) {
	cfg := kafkalog.DefaultConfig()
	cfg.MessageTimestampDifferenceMaxMs = 100
	if lo, hi, ok := TimestampWithin(cfg, 1000, 1101); ok || lo != 900 || hi != 1100 {
		t.Errorf("difference 100 at 1000: [%d, %d] ok=%v, want [900, 1100] and 1101 out", lo, hi, ok)
	}
	cfg.MessageTimestampAfterMaxMs = 500
	if _, hi, ok := TimestampWithin(cfg, 1000, 1101); !ok || hi != 1500 {
		t.Errorf("after.max.ms 500 at 1000: hi %d ok=%v, want 1500 and 1101 in", hi, ok)
	}
}
