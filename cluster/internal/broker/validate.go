package broker

import (
	"fmt"
	"path"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/cluster/internal/validator"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// validatingLog is a leader's log that validates a producer's batch bytes before
// appending them, as Kafka's LogValidator does (Kafka 3.7): a batch that fails its CRC
// or whose lengths do not hold is CORRUPT_MESSAGE, one whose records do not parse or
// do not match its header is INVALID_RECORD.
type validatingLog struct {
	*replicalog.Log
}

// AppendAsLeader implements [replica.Log].
func (v validatingLog) AppendAsLeader(records []replica.Record, leaderEpoch int32) (int64, error) {
	if len(records) > 0 && records[0].Batch != nil {
		raw, err := v.validate(records[0].Batch)
		if err != nil {
			return 0, err
		}
		if &raw[0] != &records[0].Batch[0] {
			records = slices.Clone(records)
			records[0].Batch = raw
		}
	}
	return v.Log.AppendAsLeader(records, leaderEpoch)
}

// AppendBatchAsLeader implements [replica.BatchLog], validating b.Bytes first.
func (v validatingLog) AppendBatchAsLeader(b replica.ProducerBatch, leaderEpoch int32) (int64, error) {
	raw, err := v.validate(b.Bytes)
	if err != nil {
		return 0, err
	}
	b.Bytes = raw
	return v.Log.AppendBatchAsLeader(b, leaderEpoch)
}

// validate checks one producer batch as Kafka 3.7's LogValidator does
// (validateBatch, then every record) and returns the bytes to append: raw,
// or, in a CreateTime topic whose batch's header says otherwise, a copy
// whose maxTimestamp is the largest of its records' timestamps. Records
// whose offset deltas are not 0, 1, 2... are refused (Kafka stores an
// uncompressed batch's as they are; a log's offsets here always increase).
func (v validatingLog) validate(raw []byte) ([]byte, error) {
	h, n, err := kafkalog.CheckBatch(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", replica.ErrCorruptMessage, err)
	}
	if n != len(raw) {
		return nil, fmt.Errorf("%w: %d bytes after the batch", replica.ErrCorruptMessage, len(raw)-n)
	}
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	decoded, marker := false, false
	if h.Attributes.IsControl() {
		// a transaction marker the coordinator has the leader append
		// (origin COORDINATOR: validateBatch's client checks do not apply)
		_, err := dec.Decode(raw, &b)
		decoded, marker = err == nil, err == nil && validator.IsEndTxnMarker(&b)
	}
	if !marker {
		if why := validator.BatchProblem(&h, path.Base(v.Log.Kafka().Dir())); why != "" {
			return nil, fmt.Errorf("%w: %s", replica.ErrInvalidRecord, why)
		}
	}
	if !decoded {
		if _, err := dec.Decode(raw, &b); err != nil {
			return nil, fmt.Errorf("%w: %w", replica.ErrInvalidRecord, err)
		}
	}
	largest := int64(kafkalog.NoTimestamp)
	for i := range b.Records {
		if d := b.Records[i].OffsetDelta; d != int32(i) {
			return nil, fmt.Errorf("%w: record %d has offset delta %d: kafkalive keeps a log's offsets increasing", replica.ErrInvalidRecord, i, d)
		}
		largest = max(largest, b.Timestamp(&b.Records[i]))
	}
	return validator.WithLargestTimestamp(raw, &h, largest, v.Log.Kafka().Config())
}
