package kafkalog

import "fmt"

// AppendRecord adds a record with an absolute offset and timestamp to b, keeping
// the header consistent as Kafka's MemoryRecordsBuilder does: the first record
// sets BaseOffset and BaseTimestamp; every record updates LastOffsetDelta,
// MaxTimestamp (the largest timestamp so far) and NumRecords. Key, value and
// headers are kept, not copied. Offsets must increase: a record at or below the
// last offset is a caller bug and panics.
func (b *RecordBatch) AppendRecord(offset, timestamp int64, key, value []byte, headers ...Header) {
	if len(b.Records) == 0 {
		b.BaseOffset, b.BaseTimestamp, b.MaxTimestamp = offset, timestamp, timestamp
	} else if last := b.LastOffset(); offset <= last {
		panic(fmt.Sprintf("kafkalog: AppendRecord: offset %d not above the batch's last offset %d", offset, last))
	}
	if len(headers) == 0 {
		headers = nil
	}
	b.Records = append(b.Records, Record{
		TimestampDelta: timestamp - b.BaseTimestamp,
		OffsetDelta:    int32(offset - b.BaseOffset),
		Key:            key,
		Value:          value,
		Headers:        headers,
	})
	b.LastOffsetDelta = int32(offset - b.BaseOffset)
	b.MaxTimestamp = max(b.MaxTimestamp, timestamp)
	b.NumRecords = int32(len(b.Records))
}

// EncodedLen returns the size of the batch as AppendTo writes it when its
// records are not compressed (Kafka's DefaultRecordBatch.sizeInBytes). For a
// compressed batch it is the uncompressed size, an estimate as Kafka's
// estimateSizeInBytes is.
func (b *RecordBatch) EncodedLen() int {
	n := BatchHeaderLen
	for i := range b.Records {
		n += b.Records[i].EncodedLen()
	}
	return n
}
