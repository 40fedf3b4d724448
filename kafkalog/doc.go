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
// The CRC leaves out baseOffset, length and partitionLeaderEpoch, so the leader
// can assign offsets and stamp its epoch in place ([SetLastOffset],
// [SetPartitionLeaderEpoch]); switching to LogAppendTime changes attributes and
// maxTimestamp and so recomputes it ([SetMaxTimestamp]). Attributes
// ([Attributes]) use bits 0-6: codec (0-2), timestamp type (3), transactional
// (4), control (5), delete horizon (6, Kafka 3.1+, KIP-534: baseTimestamp then
// holds the cleaner's delete horizon).
//
// # Records
//
// Each record (see [Record]) is a varint length followed by varint-encoded
// deltas from the batch header, the key, the value and the headers:
//
//	length          varint   bytes that follow
//	attributes      int8     unused, 0
//	timestampDelta  varlong  timestamp - baseTimestamp (ignored under LogAppendTime)
//	offsetDelta     varint   offset - baseOffset (gaps after compaction)
//	keyLength       varint   -1 = null key
//	key             bytes
//	valueLength     varint   -1 = null value (a tombstone)
//	value           bytes
//	headersCount    varint
//	headers         per header: keyLength varint (never null), key,
//	                valueLength varint (-1 = null), value
//
// Varints are Protocol Buffers' zigzag varints with Kafka's widths: a varint is
// an int32 (at most 5 bytes), a varlong an int64 (at most 10). Kafka reads a 5th
// varint byte into 32 bits and so ignores its bits 4-6; this package does the
// same ([Varint]). The example of storage.md §4 G1, key "k" and value "v":
//
//	10 00 00 00 02 6b 02 76 00
//	│  │  │  │  │  │  │  │  └ 0 headers
//	│  │  │  │  │  │  │  └ "v"
//	│  │  │  │  │  │  └ valueLength 1
//	│  │  │  │  │  └ "k"
//	│  │  │  │  └ keyLength 1
//	│  │  │  └ offsetDelta 0
//	│  │  └ timestampDelta 0
//	│  └ attributes
//	└ length 8
//
// # Control records
//
// A control batch (attribute bit 5) holds control records: the key is int16
// version + int16 type ([ParseControlRecordKey]): 0 ABORT, 1 COMMIT, 2
// LEADER_CHANGE, 3 SNAPSHOT_HEADER, 4 SNAPSHOT_FOOTER, 5 KRAFT_VERSION, 6
// KRAFT_VOTERS (KRaft's: LEADER_CHANGE since 2.8, KIP-595; the snapshot
// markers since 3.0; KRAFT_VERSION and KRAFT_VOTERS since 3.9, KIP-853); any other type is
// UNKNOWN and ignored. ABORT and COMMIT are transaction markers: transactional
// too, one record, baseSequence -1, and a value of int16 version + int32
// coordinatorEpoch ([EndTxnMarker], [NewEndTxnMarkerBatch]). KRaft's metadata
// log starts with a LEADER_CHANGE batch.
//
// # Compression
//
// A compressed batch keeps its 61-byte header plain; the records section is one
// compressed stream of the records laid end to end. gzip: a gzip stream. lz4:
// an LZ4 frame. zstd: a zstd frame. snappy: the Java producer writes xerial
// framing (magic 82 53 4E 41 50 50 59 00, int32 version, int32 compatible
// version, then [int32 length][raw snappy block]...), while KafkaJS and
// librdkafka write one raw snappy block; Kafka reads both and so does this
// package ([Decompress]). Decompression is capped
// ([Decoder.MaxDecompressedBytes]) so a small batch cannot expand without bound.
//
// # Legacy messages (magic 0 and 1)
//
// Before 0.11 each record was a message of its own: offset int64, size int32,
// crc uint32 (CRC-32/IEEE of magic to end, not Castagnoli), magic int8,
// attributes int8, timestamp int64 (magic 1, Kafka 0.10+), key and value with
// int32 lengths. A compressed message wraps the inner messages in its value; a
// magic 1 wrapper carries the offset of its last inner message and the inner
// ones relative offsets. Old segments still hold them, mixed with v2 batches.
// [ReadLegacyMessage] and [DecompressLegacy] read them; nothing writes them to
// a log. Magic 0 lz4 (written with Kafka's broken frame checksum before 0.10,
// KAFKA-3160) is not supported.
//
// # The other files of a log directory
//
// A segment is a .log file of batches plus its indexes, all named after the
// segment's base offset ([SegmentFileName]); a partition directory is named
// topic-partition ([ParseTopicPartitionDir]). Each file's byte layout is drawn
// beside the code that reads it:
//
//   - .index: 8-byte entries (relativeOffset, position), on [OffsetIndex].
//   - .timeindex: 12-byte entries (timestamp, relativeOffset), on [TimeIndex].
//   - .txnindex: 34-byte aborted transactions, in txnindex.go ([AbortedTxn]).
//   - .snapshot: producer state with a CRC-32C, in snapshot.go
//     ([ReadProducerSnapshot]).
//   - leader-epoch-checkpoint and the *-offset-checkpoint files: text, in
//     checkpoint.go ([ReadOffsetCheckpoint], [ReadLeaderEpochCheckpoint]).
//   - .kafka_cleanshutdown: JSON with the broker epoch, on [DecodeCleanShutdown].
//
// The offset and time indexes share their file handling (indexfile.go): a
// writable index is preallocated to its maximum size and trimmed to its entries
// when the segment rolls or closes, as Kafka's AbstractIndex does, and an index
// that fails its sanity check is rebuilt from the .log by recovery.
//
// # Reading and writing
//
// [RecordBatch.AppendTo] encodes a batch into a caller's buffer, reserving the
// length and CRC and filling them in at the end; [RecordBatch.AppendRecord]
// builds one from absolute offsets and timestamps. [ReadBatch] decodes one; a
// [Decoder] does the same while reusing its memory, so that a stream of
// uncompressed batches decodes with no allocation at all. [CheckBatch] validates a
// batch (length, magic, CRC) without decoding its records, as log recovery does.
// [BatchIter] walks a whole segment or fetch response of mixed magic 0, 1 and 2
// entries and, like Kafka's FileLogInputStream, stops quietly at a torn tail
// while saying where it is ([BatchIter.TornTail]).
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
