package batch

import (
	"github.com/kafkalive/kafkalive/exercises/todo"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// AppendRecord appends r to dst in the v2 record layout and returns the
// extended slice. Read notes/01-records-on-disk.md#a-record-inside-the-batch.
//
//	length          varint   bytes of the record after this field
//	attributes      int8     0
//	timestampDelta  varlong
//	offsetDelta     varint
//	keyLength       varint   -1 for a null key (nil), 0 for an empty one
//	key
//	valueLength     varint   -1 for a null value
//	value
//	headersCount    varint
//	headers         keyLength, key, valueLength (-1 = null), value
//
// The fields of kafkalog.Record you write, in the order above:
//
//	Attributes     int8     write as given (Kafka writes 0)
//	TimestampDelta int64    the record's timestamp minus the batch's BaseTimestamp
//	OffsetDelta    int32    the record's offset minus the batch's BaseOffset
//	Key            []byte   nil is a null key (length -1), []byte{} an empty one
//	Value          []byte   nil is a null value (a tombstone)
//	Headers        []kafkalog.Header, each {Key, Value []byte}; a nil Value is null
//
// You wrote the varint encoder in the previous exercise; here use the library's
// kafkalog.AppendVarint and kafkalog.AppendVarlong. Use nothing else of the
// library's encoding: (*kafkalog.RecordBatch).AppendTo is the answer itself, and
// calling it proves nothing (the test refuses it).
func AppendRecord(dst []byte, r *kafkalog.Record) []byte {
	panic(todo.TODO) // delete this line and write the record encoder
}

// AppendBatch appends b to dst as an uncompressed record batch v2 and returns
// the extended slice. Read notes/01-records-on-disk.md#the-61-byte-batch-header.
//
// Write the 61-byte header (big-endian integers) with magic 2 and recordsCount =
// len(b.Records), then each record with AppendRecord. Every other header field
// is written as set in b. The fields of kafkalog.RecordBatch, in header order
// (b.BaseOffset and the others are promoted from its embedded BatchHeader):
//
//	BaseOffset           int64   bytes 0-7
//	(length)             int32   bytes 8-11: you compute it; ignore b.BatchLength
//	PartitionLeaderEpoch int32   bytes 12-15
//	(magic)              int8    byte 16: always 2; ignore b.Magic
//	(crc)                uint32  bytes 17-20: you compute it; ignore b.CRC
//	Attributes           int16   bytes 21-22 (kafkalog.Attributes; write uint16(b.Attributes))
//	LastOffsetDelta      int32   bytes 23-26
//	BaseTimestamp        int64   bytes 27-34
//	MaxTimestamp         int64   bytes 35-42
//	ProducerID           int64   bytes 43-50
//	ProducerEpoch        int16   bytes 51-52
//	BaseSequence         int32   bytes 53-56
//	(recordsCount)       int32   bytes 57-60: len(b.Records); ignore b.NumRecords
//	Records              []kafkalog.Record, each written with AppendRecord
//
// Two fields you can only fill in at the end:
//
//   - length: the bytes after the length field
//     (notes/01-records-on-disk.md#the-length-field);
//   - crc: the CRC-32C of exactly the right bytes
//     (notes/01-records-on-disk.md#the-crc-covers-bytes-21-to-the-end).
//
// Check your work with: go test ./exercises/ch01/batch
func AppendBatch(dst []byte, b *kafkalog.RecordBatch) []byte {
	panic(todo.TODO) // delete this line and write the batch encoder
}
