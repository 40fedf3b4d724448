package validator

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// WithLargestTimestamp is raw, a producer's batch of header h whose records'
// largest timestamp is largest, as the leader appends it to a topic of cfg:
// in a CreateTime topic, Kafka 3.7's LogValidator sets the batch to
// CreateTime and its maxTimestamp to largest, whatever the producer wrote
// there (setMaxTimestamp, with a new CRC), here on a copy, so that the
// timeline keeps the batch the producer sent; else raw itself.
func WithLargestTimestamp(raw []byte, h *kafkalog.BatchHeader, largest int64, cfg kafkalog.Config) ([]byte, error) {
	if cfg.MessageTimestampType != kafkalog.CreateTime || h.MaxTimestamp == largest && h.Attributes.TimestampType() == kafkalog.CreateTime {
		return raw, nil
	}
	raw = slices.Clone(raw)
	return raw, kafkalog.SetMaxTimestamp(raw, kafkalog.CreateTime, largest)
}

// RebuildInOrder is the batch raw (compressed, valid) written anew as
// Kafka's LogValidator.buildRecordsAndAssignOffsets writes it: its
// records, each with the timestamp the batch gives it, at offset deltas 0,
// 1, 2..., in a CreateTime batch of the same compression and producer
// fields (the leader then stamps it as any other).
func RebuildInOrder(raw []byte) ([]byte, error) {
	var dec kafkalog.Decoder
	var in kafkalog.RecordBatch
	if _, err := dec.Decode(raw, &in); err != nil {
		return nil, fmt.Errorf("rebuild a batch whose offsets are out of order: %w", err)
	}
	var out kafkalog.RecordBatch
	out.Attributes = kafkalog.Attributes(0).WithCompression(in.Attributes.Compression())
	out.PartitionLeaderEpoch, out.ProducerID, out.ProducerEpoch, out.BaseSequence = -1, in.ProducerID, in.ProducerEpoch, in.BaseSequence
	for i := range in.Records {
		r := &in.Records[i]
		out.AppendRecord(int64(i), in.Timestamp(r), r.Key, r.Value, r.Headers...)
	}
	return out.AppendTo(nil), nil
}

// RecordErrors checks each record of raw (a client's batch, valid) as Kafka
// 3.7's LogValidator.validateRecord does, and returns the answer to a
// batch with records in error: INVALID_TIMESTAMP when any record's
// timestamp is refused, else INVALID_RECORD, with Kafka's message and one
// error record for each record refused (its index in the batch and why);
// code 0 when every record passes. A record of a compacted topic needs a
// key; a CreateTime record's timestamp (other than -1) must lie within
// message.timestamp.before.max.ms before the leader's clock now and
// after.max.ms after it; a batch may say LogAppendTime only with
// timestamps a CreateTime topic checks (validateTimestamp: "Producer
// should not set timestamp type to LogAppendTime").
func RecordErrors(raw []byte, cfg kafkalog.Config, tp kafkalog.TopicPartition, now int64) (int16, string, []kmsg.ProduceResponseTopicPartitionErrorRecord) {
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	if _, err := dec.Decode(raw, &b); err != nil {
		return kafkaerr.CorruptMessage, "", nil
	}
	var errs []kmsg.ProduceResponseTopicPartitionErrorRecord
	var shown []string
	timestamp := false
	for i := range b.Records {
		r := &b.Records[i]
		ts := b.Timestamp(r)
		var why string
		switch {
		case cfg.Compact() && r.Key == nil:
			why = fmt.Sprintf("Compacted topic cannot accept message without key in topic partition %s.", tp)
		case cfg.MessageTimestampType == kafkalog.CreateTime && ts != kafkalog.NoTimestamp:
			if lo, hi, ok := TimestampWithin(cfg, now, ts); !ok {
				why = fmt.Sprintf("Timestamp %d of message with offset %d is out of range. The timestamp should be within [%d, %d]", ts, b.BaseOffset+int64(r.OffsetDelta), lo, hi)
				timestamp = true
			}
		case b.Attributes.TimestampType() == kafkalog.LogAppendTime:
			why = fmt.Sprintf("Invalid timestamp type in message DefaultRecord(offset=%d, timestamp=%d, key=%d bytes, value=%d bytes). Producer should not set timestamp type to LogAppendTime.", b.BaseOffset+int64(r.OffsetDelta), ts, len(r.Key), len(r.Value))
			timestamp = true
		}
		if why == "" {
			continue
		}
		errs = append(errs, kmsg.ProduceResponseTopicPartitionErrorRecord{RelativeOffset: int32(i), ErrorMessage: kmsg.StringPtr(why)})
		if len(shown) < 3 {
			shown = append(shown, fmt.Sprintf("RecordError(batchIndex=%d, message='%s')", i, why))
		}
	}
	switch {
	case len(errs) == 0:
		return 0, "", nil
	case timestamp: // LogValidator.processRecordErrors
		return kafkaerr.InvalidTimestamp, "One or more records have been rejected due to invalid timestamp", errs
	}
	return kafkaerr.InvalidRecord, fmt.Sprintf("One or more records have been rejected due to %d record errors in total, and only showing the first three errors at most: [%s]", len(errs), strings.Join(shown, ", ")), errs
}

// TimestampWithin reports whether a CreateTime record's timestamp ts lies
// within the topic's bounds around the leader's clock now
// (message.timestamp.before.max.ms and after.max.ms; LogValidator's
// validateTimestamp, in Java's long arithmetic, which wraps as Go's does),
// and the window [lo, hi] as Kafka's message prints it.
func TimestampWithin(cfg kafkalog.Config, now, ts int64) (lo, hi int64, ok bool) {
	before, after := cfg.TimestampBounds()
	diff := now - ts
	return now - before, now + after, diff <= before && -diff <= after
}

// BatchProblem is why Kafka 3.7's LogValidator.validateBatch refuses h, a
// client's batch, in its words; "" if it does not: the offsets the header
// spans must be as many as the records it counts, at least one, a client
// may not write a control batch, and an idempotent producer's batch needs
// a sequence number.
func BatchProblem(h *kafkalog.BatchHeader, tp string) string {
	first, last := h.BaseOffset, h.BaseOffset+int64(h.LastOffsetDelta)
	switch fromOffsets := last - first + 1; {
	case fromOffsets <= 0:
		return fmt.Sprintf("Batch has an invalid offset range: [%d, %d] in topic partition %s", first, last, tp)
	case h.NumRecords <= 0:
		return fmt.Sprintf("Invalid reported count for record batch: %d in topic partition %s", h.NumRecords, tp)
	case fromOffsets != int64(h.NumRecords):
		return fmt.Sprintf("Inconsistent batch offset range [%d, %d] and count of records %d in topic partition %s", first, last, h.NumRecords, tp)
	case h.Attributes.IsControl():
		return fmt.Sprintf("Clients are not allowed to write control records in topic partition %s", tp)
	case h.ProducerID >= 0 && h.BaseSequence < 0:
		return fmt.Sprintf("Invalid sequence number %d in record batch with producerId %d in topic partition %s", h.BaseSequence, h.ProducerID, tp)
	}
	return ""
}

// IsEndTxnMarker reports whether b is a transaction marker: one record
// whose key is a COMMIT or ABORT control key and whose value an
// EndTxnMarker.
func IsEndTxnMarker(b *kafkalog.RecordBatch) bool {
	if len(b.Records) != 1 {
		return false
	}
	k, err := kafkalog.ParseControlRecordKey(b.Records[0].Key)
	if err != nil || !k.Type.IsTxnMarker() {
		return false
	}
	_, err = kafkalog.ParseEndTxnMarker(b.Records[0].Value)
	return err == nil
}
