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
// You wrote the varint encoder in the previous exercise; here use the library's
// kafkalog.AppendVarint and kafkalog.AppendVarlong.
func AppendRecord(dst []byte, r *kafkalog.Record) []byte {
	panic(todo.TODO) // delete this line and write the record encoder
}

// AppendBatch appends b to dst as an uncompressed record batch v2 and returns
// the extended slice. Read notes/01-records-on-disk.md#the-61-byte-batch-header.
//
// Write the 61-byte header (big-endian integers) with magic 2 and recordsCount =
// len(b.Records), then each record with AppendRecord. Every other header field
// is written as set in b. Two fields you can only fill in at the end:
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
