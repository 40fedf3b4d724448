package replica

// NoEpoch is the leader epoch of records written under [V0_10] rules, which
// carry none, and the "undefined" epoch of OffsetsForLeaderEpoch answers
// (Kafka's UNDEFINED_EPOCH, -1).
const NoEpoch int32 = -1

// UndefinedOffset is the "undefined" end offset of OffsetsForLeaderEpoch
// answers (Kafka's UNDEFINED_EPOCH_OFFSET, -1).
const UndefinedOffset int64 = -1

// Record is what a producer sends: a key and a value (either may be nil),
// and for an idempotent producer its id and the record's sequence number.
type Record struct {
	Key   []byte
	Value []byte
	// Producer is nil for a producer without idempotence (Kafka's producerId
	// -1). In a batch the records' sequences are consecutive.
	Producer *ProducerSequence
	// Batch, on the first record of a produce only, is the client's record
	// batch those records were decoded from, as it came over the wire (nil:
	// the Log encodes the records itself). A Log that stores batches as
	// bytes appends it as Kafka's leader does (LogValidator: offsets and the
	// leader epoch stamped in place, everything else kept: compression,
	// headers, timestamps, producer fields) and may modify it; [MemLog]
	// ignores it.
	Batch []byte
}

// ProducerBatch is a producer's records handed to the leader as one record
// batch, the way a Kafka client's Produce carries them for a partition: a
// count, the producer fields of its first record, and the batch's bytes,
// which only a [BatchLog] reads. It saves the caller a [Record] per record
// when the log works on bytes anyway.
type ProducerBatch struct {
	// Count is the number of records in the batch.
	Count int
	// Producer is the first record's producer id, epoch and sequence, nil for
	// a producer without idempotence; record i has sequence
	// Producer.Sequence+i (the batch's BaseSequence plus its offset delta).
	Producer *ProducerSequence
	// Bytes is the batch as the producer sent it, checked by the caller
	// as Kafka's LogValidator checks it: its CRC and lengths hold, it
	// decodes to Count records, and their offset deltas are 0, 1, 2...
	// The log may modify it (offsets and the leader epoch are stamped in
	// place) and keep it.
	Bytes []byte
}

// BatchLog is a [Log] that takes a [ProducerBatch] whole:
// AppendBatchAsLeader appends b.Bytes as [Log.AppendAsLeader] appends a
// batch given as Records[0].Batch (offsets from the LEO, leaderEpoch
// stamped, everything else kept) and returns the first offset. A leader
// whose log is not a BatchLog refuses a Produce that carries a
// ProducerBatch.
type BatchLog interface {
	Log
	AppendBatchAsLeader(b ProducerBatch, leaderEpoch int32) (baseOffset int64, err error)
}

// FetchLog is a [Log] that stores record batches as bytes and answers a
// follower's fetch with them, undecoded. ReadFetch is [Log.Read] for a
// follower's fetch, except that it may hand out a whole batch as one entry
// (Entry.Count above 0) instead of its records, and may measure such a
// batch by its bytes; its AppendAsFollower appends such entries. A leader
// whose log is a FetchLog reads its followers' fetches with ReadFetch.
type FetchLog interface {
	Log
	ReadFetch(from int64, maxBytes int) ([]Entry, error)
}

// ProducerSequence identifies one record of an idempotent producer (KIP-98):
// the batch fields ProducerID and ProducerEpoch, and BaseSequence plus the
// record's index in its batch.
type ProducerSequence struct {
	ID       int64
	Epoch    int16
	Sequence int32
}

// Entry is one record in the log at its offset, with the leader epoch of the
// batch that carried it (PartitionLeaderEpoch; [NoEpoch] under [V0_10]).
type Entry struct {
	Offset      int64
	LeaderEpoch int32
	// Count, when above 0, makes the entry a whole record batch rather than
	// one record: the batch it carries (Batch), not decoded, holding Count
	// records at offsets Offset to Offset+Count-1, all of leader epoch
	// LeaderEpoch; Key, Value and Producer are unset. Only
	// [FetchLog.ReadFetch] hands out such entries, for a follower's fetch,
	// as Kafka's leader sends a follower the log's bytes as they are
	// (FileRecords.slice), and only a Log that stores batches as bytes
	// appends them. 0 is an ordinary entry.
	Count int32
	Key   []byte
	Value []byte
	// Producer is the idempotent producer's id and sequence, nil if none.
	Producer *ProducerSequence
	// BatchStart marks the first record of a record batch, for a Log that
	// keeps records rather than batches' bytes ([MemLog] sets it on the
	// first record of each append as leader; a Log that sets Batch there
	// need not). A new leader reads its producers' last batches from the
	// log (Kafka keeps five per producer, ProducerStateEntry) and answers a
	// retry only when it is one of them exactly: without the marks, the
	// records of one producer that follow each other count as one batch.
	BatchStart bool
	// Batch, set only by a Log that stores batches as bytes, and only on
	// the first entry of a record batch, holds that batch's bytes as the
	// log stores them; the entries up to the batch's last offset follow it
	// in the same slice. Such a follower's Log appends these bytes instead
	// of encoding the entries again, so
	// that it stores what its leader stores, byte for byte (compression,
	// headers, timestamps and producer fields included), as a Kafka follower
	// appends the batches it fetched (UnifiedLog.appendAsFollower). The
	// caller must not modify it.
	Batch []byte
}

// EpochEntry is one entry of the leader epoch cache: epoch Epoch starts at
// offset StartOffset (leader-epoch-checkpoint, LeaderEpochFileCache).
type EpochEntry struct {
	Epoch       int32
	StartOffset int64
}

// LogStartRaiser is a [Log] whose start a follower moves forward to its
// leader's, as Kafka's follower does after each fetch
// (ReplicaFetcherThread.processPartitionData calls
// UnifiedLog.maybeIncrementLogStartOffset with the leader's log start,
// reason LeaderOffsetIncremented): the records below offset can no longer
// be read, and the segments wholly below it go at the next retention
// pass. A Log that is not one (MemLog) keeps its own start.
type LogStartRaiser interface {
	// RaiseLogStartOffset moves the log start offset forward to offset,
	// at most highWatermark (Kafka refuses one above it); an offset at or
	// below the log start does nothing.
	RaiseLogStartOffset(offset, highWatermark int64) error
}

// Log is how a [Node] sees its partition's log. It is record-level: batching,
// bytes and files are the implementation's business. The implementation owns
// the leader epoch cache and keeps it in step with the log the way Kafka's
// UnifiedLog does: an append whose epoch is newer than the cache's latest adds
// an entry at its offset (LeaderEpochFileCache.assign), a truncation removes entries starting at or
// above the new end (LeaderEpochFileCache.truncateFromEnd). The Node never calls it concurrently. Errors are
// returned to the Node's caller wrapped in [ErrLog].
//
// [MemLog] is the in-memory implementation; the cluster adapts kafkalog's.
type Log interface {
	// LogStartOffset is the first offset still present.
	LogStartOffset() int64
	// LogEndOffset (LEO) is the offset the next appended record gets.
	LogEndOffset() int64
	// AppendAsLeader assigns offsets from the LEO to records, stamps them
	// with leaderEpoch ([NoEpoch] under V0_10), keeps their producer ids and
	// sequences, and returns the first offset.
	AppendAsLeader(records []Record, leaderEpoch int32) (baseOffset int64, err error)
	// AppendAsFollower appends entries with the offsets and epochs the leader
	// gave them. Offsets increase from at least the LEO: a leader's
	// compacted log has gaps, and a follower that fetches from inside one
	// gets the records kept after it at their own offsets (Kafka's
	// UnifiedLog.appendAsFollower refuses only offsets below the LEO). A log
	// that is never compacted (MemLog) may require them consecutive.
	AppendAsFollower(entries []Entry) error
	// Read returns the entries from offset from onwards, at most maxBytes of
	// them by the implementation's measure but at least one if any exists.
	// The caller must not modify the returned entries.
	Read(from int64, maxBytes int) ([]Entry, error)
	// TruncateTo removes every entry at offset ≥ offset and every epoch cache
	// entry starting at ≥ offset, including one at the LEO itself (an epoch a
	// former leader cached without writing in it). It does nothing when
	// offset > LEO.
	TruncateTo(offset int64) error
	// TruncateFullyAndStartAt empties the log and sets both its start and end
	// to offset (a follower below the leader's log start, AbstractFetcherThread.handleOutOfRangeError).
	TruncateFullyAndStartAt(offset int64) error
	// AssignEpoch adds (epoch, startOffset) to the epoch cache with Kafka's
	// LeaderEpochFileCache.assign rules; a new leader calls it (Partition.makeLeader, 2.1+).
	AssignEpoch(epoch int32, startOffset int64) error
	// Epochs returns the epoch cache, oldest first. The caller must not
	// modify the slice.
	Epochs() []EpochEntry
}
