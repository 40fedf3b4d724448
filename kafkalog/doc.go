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
// same ([Varint]). The one record of a batch with key "k" and value "v":
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
//   - the records of __transaction_state, the transaction coordinators' log, in
//     txnlog.go ([TxnLogValue]; [FormatTxnLogRecord] prints them as
//     kafka-dump-log --transaction-log-decoder does).
//   - leader-epoch-checkpoint and the *-offset-checkpoint files: text, in
//     checkpoint.go ([ReadOffsetCheckpoint], [ReadLeaderEpochCheckpoint]).
//   - .kafka_cleanshutdown: JSON with the broker epoch, on [DecodeCleanShutdown].
//
// The offset and time indexes share their file handling (indexfile.go): a
// writable index is preallocated to its maximum size and trimmed to its entries
// when the segment rolls or closes, as Kafka's AbstractIndex does, its entries are
// written back in one write at sync, trim and close ("Indexes and crashes" below),
// and an index that fails its sanity check is rebuilt from the .log by recovery.
//
// # The partition log
//
// A [Log] is one partition's directory (Kafka's UnifiedLog over LocalLog): its
// segments in base-offset order, the last of which is the active segment that
// takes appends, plus the log start offset, the log end offset (LEO), the
// recovery point and the leader epoch cache (leader-epoch-checkpoint). A
// [Segment] is three files named after its base offset: the .log of batches, the
// .index mapping offsets to byte positions every index.interval.bytes (4096), and
// the .timeindex mapping the largest timestamp so far to its offset. Time always
// comes in as an argument and nothing runs in the background: the caller drives
// deletion ([Log.DeleteExpiredFiles]), retention ([Log.DeleteOldSegments]) and
// compaction ([Log.Clean]).
//
// Append. [Log.AppendAsLeader] validates each batch (max.message.bytes, then
// length, magic, CRC) without decoding its records, assigns offsets from the LEO
// and stamps the leader epoch in place (outside the CRC), rolls if needed and
// writes all the batches of the call with one WriteAt; [Log.AppendAsFollower]
// keeps the leader's offsets and epochs and, as Kafka's follower does, ignores
// max.message.bytes. Their NoCopy forms ([Log.AppendAsLeaderNoCopy],
// [Log.AppendAsFollowerNoCopy]) are for a caller that hands its buffer over: on a
// file system that can keep it (vfs.NoCopyWriter: vfs.MemFS), the segment file
// holds those bytes rather than a copy, as a simulation holding many logs in memory
// wants. An append larger than segment.bytes is refused whole
// ([ErrAppendTooLarge], Kafka's RecordBatchTooLargeException: segment.bytes is the
// roll threshold, and UnifiedLog.append of Kafka 3.7 refuses what no segment could
// hold rather than rolling for it); a batch larger than max.message.bytes is
// [ErrRecordTooLarge]. [ErrorCode] gives the error code a broker answers for each
// (RECORD_LIST_TOO_LARGE, MESSAGE_TOO_LARGE); a refused append changes nothing. A
// segment may still be larger than segment.bytes if the setting was lowered after
// it was written: it recovers, rolls at the next append, and is retained and
// cleaned as any other (a cleaner group of its own). Index entries are added in memory: like
// Kafka's mmapped indexes, they reach their files later (see "Indexes and
// crashes" below). An append fsyncs nothing unless flush.messages is reached or
// it rolls the segment (the roll flushes the old one).
//
// Read. [Log.Read] finds the segment holding an offset, the largest offset-index
// entry at or below it (the warm last 8 KiB of the index first, as Kafka's
// AbstractIndex does), scans batch headers from there, and returns whole batches
// up to a byte limit, as a fetch does. [Log.OffsetForTimestamp] goes through the
// time index the same way. [Log.Locate] finds where such a read begins without
// reading, and [Log.ReadStats] counts the reads and the batch headers their scans
// walked past: how far the sparse index left each one to go.
//
// Roll. A segment rolls on segment.bytes, segment.ms (minus a per-segment jitter
// drawn from the caller's seeded source), a full index, or an offset that would
// not fit 31 bits relative to the base offset (LogSegment.shouldRoll). The old
// segment gets its final time-index entry, its indexes are written back and
// trimmed to their entries, and it is flushed at once (Kafka flushes it
// asynchronously right after the roll), which moves the recovery point to the
// new segment's base offset.
//
// Truncate. [Log.TruncateTo] cuts a follower's log back to an offset: later
// segments are deleted, the segment holding it is cut before the first batch that
// reaches it and becomes the active segment again, and the epoch cache forgets
// the epochs that started there. [Log.TruncateFullyAndStartAt] empties the log.
//
// Flush, the recovery point and clean shutdown. [Log.Flush] fsyncs the .log and
// the written-back indexes of every segment from the recovery point up to an
// offset (each file once, then the directory if its entries changed) and only
// then moves the recovery point there: every segment below the recovery point is
// durable, indexes included. [Log.Close] writes back, trims and flushes
// everything and sets the recovery point to the LEO; [DataDir.Close] then writes
// the recovery-point and log-start-offset checkpoints and the clean shutdown
// marker (.kafka_cleanshutdown). [OpenDataDir] reads and removes the marker and
// passes each log its recovery point.
//
// Disk errors. A file operation that fails in the middle of a change to a log
// (an append, a roll, a truncation, retention, a cleaning swap, a flush) may
// leave its files and what the Log holds in memory apart, as an IOException
// does in Kafka, which then takes the log's directory offline
// (LogDirFailureChannel) until the broker restarts. The Log does the same: that
// call returns the disk's error, and every later call but [Log.Close] returns
// [ErrLogFailed] wrapping it; opening the directory again recovers what the
// disk holds.
//
// Recovery. [Open] removes leftover .deleted and .cleaned files and completes
// interrupted swaps of cleaner output, loads every segment, and, after an unclean
// shutdown, recovers the segments from the one holding the recovery point to the
// end, plus any segment whose index is missing or fails its sanity check
// (LogLoader.recoverLog). Recovering a segment walks its batches through one
// reused 1 MiB buffer checking length, magic, CRC and that offsets increase and
// fit the segment, without decoding records; it rebuilds both indexes and the
// epoch cache entries, and cuts the .log at the first byte that is not a whole
// valid batch. [RecoveryReport] says what the open found and removed.
//
// Opening damaged files. Files can also be damaged from outside: copied, restored
// from a backup, truncated, left behind. The rule: an open never cuts a batch that
// passes its checks, never leaves bytes that fail them where an append would follow,
// and, where the files contradict each other, repairs what it can prove and otherwise
// fails with a [*FileError] wrapping [ErrInconsistentLog] that names the file and
// position (and then changes no .log). Each kind of contradiction:
//
//   - A segment the open does not recover (below the recovery point, or any after
//     a clean shutdown) is verified first: every offset-index entry must point at a
//     v2 batch header at or below its offset, the batches after the last entry must be
//     whole, pass their CRCs and fit the segment, and the indexes must end inside it.
//     A segment that fails (an index copied from another segment, a torn last batch
//     under a clean shutdown marker) is recovered, and the failure is listed in
//     [RecoveryReport].Inconsistencies.
//   - A segment file without a valid batch whose base offset lies inside the data of
//     the segments before it (a stray empty .log), or that ends the log beyond its
//     data, is removed: it holds nothing, and kept it would hide data behind a new
//     active segment, make recovery cut that data, or move the LEO past offsets never
//     written.
//   - A segment with valid batches whose base offset lies inside the data before it:
//     two files claim the same offsets. ErrInconsistentLog, naming the batch that
//     holds the later segment's base.
//   - A segment recovery must cut: the later segments are deleted if they are empty;
//     if one holds data, ErrInconsistentLog at the first invalid byte. A segment is
//     flushed before the next one takes appends (see Roll), so a crash never leaves
//     this; outside damage does.
//   - Bytes with magic 0 or 1 where recovery walks are read as a legacy message, as
//     Kafka's FileLogInputStream reads them: one whose CRC-32/IEEE fails (a v2 batch
//     whose magic byte was damaged) is cut as any corrupt batch; one whose CRC holds
//     is [ErrLegacyFormat], and nothing is cut.
//   - A leader epoch entry that the log contradicts (the first batch at or after its
//     start offset is of an older epoch: a damaged base offset, which the CRC does
//     not cover, moved it there) is dropped and listed in Inconsistencies; Kafka 3.7
//     keeps it, and a leader then says the older epoch ends before a batch of it.
//   - An unreadable recovery-point, log-start-offset or cleaner-offset checkpoint is
//     reset to empty ([DataDir.CheckpointsReset]) and rewritten: recovery from 0,
//     the log start at the first segment, cleaning from the start, as Kafka 3.7's
//     LogManager.loadLogs and LogCleanerManager.allCleanerCheckpoints do. An
//     unreadable leader-epoch-checkpoint fails the log, naming the file (Kafka fails
//     the log dir).
//
// Every byte the open removes is in [RecoveryReport].Removed: the tails cut, the
// segments deleted after a cut or below the log start offset, the leftover and stray
// files.
//
// Indexes and crashes. An index keeps its entries in memory and writes the ones
// appended since its last write back to the file in one WriteAt when it is
// synced, trimmed (roll, recovery end) or closed. Kafka mmaps the file instead, so
// an entry costs a memory store and the kernel writes pages back when it likes;
// here a write per entry would cost a syscall and halve the append rate. After a
// process crash or a power cut, entries never written back are lost, exactly as
// Kafka's unflushed mmap pages are after a power cut: the preallocated file reads
// as zeros where they would be. That is safe because only a segment at or beyond
// the recovery point can have such an index, Open recovers exactly those segments
// after an unclean shutdown, rebuilding their indexes from the .log, and the
// recovery point only advances past a segment after a flush that wrote back and
// then fsynced its indexes. [Log.WriteBackIndexes] writes the entries back without
// an fsync, for readers of the files of a live log (kafka-dump-log sees a live
// broker's mmapped entries in the page cache).
//
// Retention. [Log.DeleteOldSegments] deletes, oldest first, the segments wholly
// below the log start offset, then by retention.bytes, then by retention.ms
// (against each segment's largest timestamp), never past the caller's high
// watermark; deleted segments become .deleted files that [Log.DeleteExpiredFiles]
// removes after file.delete.delay.ms. [Log.DeleteRecords] moves the log start
// offset forward.
//
// Transactions. A Log keeps its producers' state as Kafka 3.7's ProducerStateManager
// does (producerstate.go): each producer id's epoch, last sequence and offset,
// coordinator epoch and open transaction ([Log.Producers]), the transactions open
// ([Log.OngoingTxns]) and those whose marker is not yet below the high watermark.
// Together with the high watermark the caller passes they give the last stable offset
// ([Log.LastStableOffset]), up to which a read_committed consumer reads. A leader's
// append is refused, as ProducerAppendInfo refuses it, for a producer epoch older
// than the producer's ([ErrInvalidProducerEpoch]), a marker from an older coordinator
// epoch ([ErrCoordinatorFenced]) and a batch that is not transactional from a
// producer with a transaction open ([ErrInvalidTxnState]); sequences are the
// caller's to check. An ABORT marker that ends a transaction that wrote here adds
// an entry to its segment's .txnindex (created on the first one, as Kafka's
// TransactionIndex opens its file lazily), with the last stable offset of that
// moment; [Log.CollectAbortedTxns] reads them for a fetch. The state is not
// persisted: opening and truncating a log read it back from the batches (Kafka
// reads its .snapshot files first), and recovery rebuilds the .txnindex of the
// segments it recovers.
//
// Compaction. [Log.Clean] is the log cleaner: it builds the map of each key's
// latest offset over the dirty section, rewrites groups of segments below it
// keeping offsets (gaps), keeps tombstones for delete.retention.ms, handles
// transaction markers (keeping the .txnindex entry of each ABORT marker it keeps,
// as CleanedTransactionMetadata does), and swaps the result in crash-safely (.cleaned, fsync,
// .swap, directory sync, old segments .deleted, .swap renamed into place). Like Kafka's
// cleaner it checks no CRC; bytes it cannot parse fail the round with
// [ErrUncleanable], the log left as it was and usable (a broker marks the partition
// uncleanable and goes on with its other logs, as Kafka 3.7's LogCleaner does).
//
// Clone. [Log.Clone] copies a log onto a copy of its file system (a simulation's
// snapshot, a fork of its timeline): a small copy per segment, nothing per byte or
// index entry. The index entries and the epoch cache's are shared with the
// original, and neither writes in place below what they share (a cut below it makes
// the next append copy), so sealed segments' indexes are never copied; the segment
// files are the clone's own file system's, opened when the clone first uses them;
// the recovery report, which nothing changes after Open, and the Parts functions
// are shared as they are.
//
// Deliberate deviations from Kafka, each for a crash Kafka survives by other
// means (leader-epoch truncation, a replica to copy from) or not at all:
//
//   - Index write-back instead of mmap (above): the same crash semantics as
//     unflushed mmap pages after a power cut; after a mere process crash Kafka
//     keeps them in the page cache and we do not, which recovery covers.
//   - Truncation fsyncs the cut .log, in [Log.TruncateTo] and when recovery cuts
//     a torn tail. Kafka's FileRecords.truncateTo does not fsync: the cut stays in
//     the page cache, and a power cut can bring the truncated batches back, or,
//     after a recovery cut, splice old torn bytes with newer ones into a batch that
//     was never written whole. Kafka relies on leader-epoch truncation to remove
//     them again; a single log cannot.
//   - [Log.TruncateTo] lowers the recovery point to the truncated segment's base
//     offset, not to the truncation offset, so that a crash before the next flush
//     recovers that segment and rebuilds its indexes, whose truncation is not
//     durable. A truncation offset inside a batch leaves the LEO at that batch's
//     base offset (Kafka would leave it at the offset with the batch gone).
//   - Dropped index slots of a truncated index are zeroed in the file (Kafka
//     leaves stale entries in its mmap): stale entries would pass for real ones
//     after a crash, zeros fail the sanity check.
//   - The sanity check also requires entries in order ([OffsetIndex.SanityCheck],
//     [TimeIndex.SanityCheck]): Kafka's passes a zero-padded index and relies on
//     the clean shutdown marker to rebuild it.
//   - Open verifies the segments it does not recover ("Opening damaged files"
//     above). Kafka 3.7's LogSegment.sanityCheck only checks that the offset index
//     file exists (and the transaction index): it trusts a copied index, and a torn
//     last batch under a clean shutdown marker, which it then appends after.
//   - Where Kafka 3.7's LogLoader.recoverLog deletes every segment after one it cut,
//     open deletes them only if they are empty and otherwise refuses; it removes a
//     stray segment without a valid batch that Kafka would load (and so hide data
//     behind, or cut data at); and it refuses segments whose offsets overlap, which
//     Kafka loads as they are.
//   - Recovery fsyncs the indexes it rebuilt (Kafka does not): they overwrite the
//     old files in place, and a power cut could splice old and new bytes into
//     entries that look valid in a segment the recovery point no longer covers.
//     It also cuts at a batch whose offsets do not increase, and refuses magic 0
//     and 1 segments (an error, not a cut).
//   - [Log.TruncateTo] syncs the directory after renaming the later segments to
//     .deleted and before it cuts: otherwise a power cut could keep the cut and undo
//     the renames, bringing the truncated segments back after a gap.
//   - A roll flushes the old segment at once, lowering the recovery point to its
//     base first, so that its trimmed indexes become durable even if its data
//     already was (an untrimmed, zero-padded index below the recovery point would
//     be trusted after a power cut). Rolling an empty active segment to its own
//     base offset keeps it (Kafka deletes and recreates it).
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
