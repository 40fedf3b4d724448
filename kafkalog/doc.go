// Package kafkalog implements Apache Kafka's storage byte for byte: record batches
// v2 (and reading v0/v1 messages), varints, CRC-32C, compression, and the
// partition log built from them.
//
// # Record batch v2
//
// A .log file is record batches laid end to end, with no file header and no
// padding. Every integer is big-endian. A batch (DefaultRecordBatch.java):
//
//	offset  size  field
//	     0     8  baseOffset            offset of the first record
//	     8     4  length                bytes after this field (batch size - 12)
//	    12     4  partitionLeaderEpoch  stamped by the leader; NOT in the CRC
//	    16     1  magic                 2
//	    17     4  crc                   CRC-32C of bytes [21, end)
//	    21     2  attributes            ─┐
//	    23     4  lastOffsetDelta        │
//	    27     8  baseTimestamp          │
//	    35     8  maxTimestamp           │
//	    43     8  producerId             │ covered by the CRC
//	    51     2  producerEpoch          │
//	    53     4  baseSequence           │
//	    57     4  recordsCount           │
//	    61     …  records               ─┘ (one compressed stream if compressed)
//
// Each record (see [Record]) is a varint length followed by varint-encoded
// deltas from the batch header, the key, the value and the headers.
//
// # Reading and writing
//
// [RecordBatch.AppendTo] encodes a batch into a caller's buffer, reserving the
// length and CRC and filling them in at the end. [ReadBatch] decodes one; a
// [Decoder] does the same while reusing its memory, so that a stream of
// uncompressed batches decodes with no allocation at all. [CheckBatch] validates a
// batch (length, magic, CRC) without decoding its records, as log recovery does.
//
// Bad input never panics: every decoder returns an error wrapping one of the
// sentinels ([ErrTruncated], [ErrCorruptBatch], [ErrInvalidRecord],
// [ErrVarintOverflow]...) inside a [*BatchError] that says which batch, where and
// which field. No length read from input sizes an allocation beyond the bytes
// actually present.
//
// The rules follow Apache Kafka's trunk of October 2024 (on the way to 4.0);
// where an older broker behaved differently the doc comment says so.
package kafkalog
