package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrLogClosed is returned by every operation on a Log after Close.
var ErrLogClosed = errors.New("kafkalog: log is closed")

// ErrLogFailed is returned by every operation on a Log after a file
// operation failed in the middle of a change to its segments, leaving
// its files and what it holds in memory apart: Kafka takes the log's
// directory offline on such an IOException (LogDirFailureChannel) and
// answers KAFKA_STORAGE_ERROR until the broker restarts; here the Log
// refuses every further change and read until it is opened again, which
// recovers what the disk holds. The error wraps the failure's.
var ErrLogFailed = errors.New("kafkalog: log failed on a disk error; open it again")

// Log is one partition's log (Kafka's UnifiedLog over LocalLog): segments in a
// directory, the log start offset, the log end offset (LEO), the recovery point and
// the leader epoch cache. Time comes in as arguments; nothing runs in the background:
// files scheduled for deletion are removed by DeleteExpiredFiles, retention by
// DeleteOldSegments, compaction by Clean. A Log is not safe for concurrent use.
type Log struct {
	fsys vfs.FS
	dir  string
	tp   TopicPartition
	cfg  Config
	rnd  Int64Source
	// onlyNewerEpochs: appends follow Kafka 0.11-2.0's epoch rule
	// (WithOnlyNewerEpochsOnAppend).
	onlyNewerEpochs bool

	segments       []*Segment // sorted by base offset; the last is the active segment
	logStartOffset int64
	nextOffset     int64 // LEO
	recoveryPoint  int64
	epochs         *LeaderEpochCache

	// producers is the producer state (producerstate.go); scratch holds
	// the producer batches of the append in progress.
	producers producerState
	scratch   []appendedBatch

	unflushedMessages int64
	dirDirty          bool // directory entries changed since the last SyncDir
	pending           []pendingDelete
	buf               []byte // header-scan buffer for lookups (lookupBuf)
	report            RecoveryReport
	closed            bool
	failed            error     // the disk error that took the log offline (fail)
	parts             Parts     // WithParts; the zero value is the reference
	calls             PartCalls // what parts answered
	reads             ReadStats // what fetch reads scanned
	lastRead          lastRead  // the latest fetch read below maxOffset
}

// Option configures Open.
type Option func(*openOptions)

type openOptions struct {
	recoveryPoint   int64
	logStartOffset  int64
	cleanShutdown   bool
	onlyNewerEpochs bool
	rnd             Int64Source
	parts           Parts
}

// Int64Source draws random numbers; a seeded *math/rand/v2.Rand is one. The log draws
// segment.jitter.ms from it, so that a world with one seeded generator stays
// deterministic.
type Int64Source interface {
	// Int64N returns a number in [0, n).
	Int64N(n int64) int64
}

// WithRecoveryPoint passes the partition's entry of recovery-point-offset-checkpoint:
// the first offset not known to be flushed. Without it recovery starts at 0.
func WithRecoveryPoint(offset int64) Option { return func(o *openOptions) { o.recoveryPoint = offset } }

// WithLogStartOffset passes the partition's entry of log-start-offset-checkpoint.
func WithLogStartOffset(offset int64) Option {
	return func(o *openOptions) { o.logStartOffset = offset }
}

// WithOnlyNewerEpochsOnAppend makes the log's appends record a batch's leader
// epoch only when it is newer than the latest in the epoch cache and starts at or
// after the latest's start, ignoring any other, as Kafka 0.11 to 2.0 did
// (LeaderEpochFileCache.assign at tag 2.0.0). Without it appends follow Kafka 2.1
// and later (KAFKA-7415; 3.7's UnifiedLog.append): every batch's epoch is
// assigned, and one below the latest removes the entries it contradicts
// ([LeaderEpochCache.Assign]). The two differ only for a batch whose epoch field
// went back: a follower fetching it from a leader whose disk damaged it (the field
// is outside the CRC), or a log whose old leaders' batches were never truncated.
func WithOnlyNewerEpochsOnAppend() Option {
	return func(o *openOptions) { o.onlyNewerEpochs = true }
}

// WithCleanShutdown says the log dir's clean shutdown marker was present: segments
// are not recovered (except those with missing or corrupt indexes).
func WithCleanShutdown() Option { return func(o *openOptions) { o.cleanShutdown = true } }

// WithRand gives the source of segment.jitter.ms (one seeded generator per world).
// Without it the jitter is 0.
func WithRand(r Int64Source) Option { return func(o *openOptions) { o.rnd = r } }

// Open opens (creating if needed) the partition log in dir: it removes leftover
// .deleted and .cleaned files, completes interrupted swaps, loads every segment,
// recovers the segments from the recovery point on after an unclean shutdown (or any
// segment whose index is missing or corrupt), verifies the segments it does not recover
// (recovering those that fail), removes stray segment files without a valid batch,
// truncates the leader epoch cache to the recovered log and makes sure there is an
// active segment (LogLoader.load). What it found and removed is in RecoveryReport. If
// the files contradict each other in a way it cannot repair without cutting valid
// batches, it fails with a *FileError wrapping ErrInconsistentLog and changes no .log
// (see the package documentation, "Opening damaged files").
//
// The recovery point may come out lower than the one passed in (the log ended
// earlier); the caller must persist RecoveryPoint() before appending, or a crash could
// skip recovering the new data. OpenDataDir does so.
func Open(fsys vfs.FS, dir string, cfg Config, nowMs int64, opts ...Option) (*Log, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var o openOptions
	for _, opt := range opts {
		opt(&o)
	}
	tp, _ := ParseTopicPartitionDir(baseName(dir))
	l := &Log{fsys: fsys, dir: dir, tp: tp, cfg: cfg, rnd: o.rnd, parts: o.parts, onlyNewerEpochs: o.onlyNewerEpochs}
	if err := mkdirDurable(fsys, dir); err != nil {
		return nil, fmt.Errorf("kafkalog: open log %s: %w", dir, err)
	}
	epochs, err := OpenLeaderEpochCache(fsys, fsys.PathJoin(dir, LeaderEpochCheckpointFile))
	if err != nil {
		return nil, fmt.Errorf("kafkalog: open log %s: %w", dir, err)
	}
	l.epochs = epochs
	if err := l.load(o, nowMs); err != nil {
		l.closeSegments()
		return nil, fmt.Errorf("kafkalog: open log %s: %w", dir, err)
	}
	return l, nil
}

// mkdirDurable creates dir and any missing parents and syncs the directory above each
// one it created, so that a power cut cannot lose it (LogManager.createLogDirectory
// flushes the parent): vfs.MkdirAllDurable.
func mkdirDurable(fsys vfs.FS, dir string) error { return vfs.MkdirAllDurable(fsys, dir, 0o755) }

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '\\' {
			return p[i+1:]
		}
	}
	return p
}

// Dir returns the partition directory.
func (l *Log) Dir() string { return l.dir }

// TopicPartition returns the partition, parsed from the directory name.
func (l *Log) TopicPartition() TopicPartition { return l.tp }

// Config returns the log's configuration.
func (l *Log) Config() Config { return l.cfg }

// Compacted reports whether the log's cleanup.policy includes "compact"
// (Config().Compact() without copying the configuration: a broker's
// cleaner asks it of every log it hosts every log.cleaner.backoff.ms).
func (l *Log) Compacted() bool { return hasPolicy(l.cfg.CleanupPolicy, CleanupPolicyCompact) }

// SetConfig changes the log's configuration, as Kafka 3.7's
// UnifiedLog.updateConfig does when a topic's configs are altered
// (kafka-configs --alter, IncrementalAlterConfigs): retention, cleanup
// and flush settings apply from the next check, segment.bytes and
// segment.ms from the next append, which rolls when the active segment is
// past the new bound. As a LogSegment does, a segment keeps the index
// size, index interval and roll jitter it was created with; new segments
// take the new ones. A config Validate refuses changes nothing.
func (l *Log) SetConfig(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	l.cfg = cfg
	return nil
}

// LogStartOffset returns the first offset a reader may fetch.
func (l *Log) LogStartOffset() int64 { return l.logStartOffset }

// LogEndOffset returns the LEO: the offset the next appended record gets.
func (l *Log) LogEndOffset() int64 { return l.nextOffset }

// RecoveryPoint returns the first offset not known to be flushed to disk.
func (l *Log) RecoveryPoint() int64 { return l.recoveryPoint }

// LeaderEpochCache returns the log's leader epoch cache.
func (l *Log) LeaderEpochCache() *LeaderEpochCache { return l.epochs }

// RecoveryReport says what Open found and cut.
func (l *Log) RecoveryReport() RecoveryReport { return l.report }

// Segments returns the segments, oldest first; the last is the active segment. The
// slice is a copy; the segments are the log's own and must not be used after the log
// changes them.
func (l *Log) Segments() []*Segment { return append([]*Segment(nil), l.segments...) }

// Size returns the total size of the segments' .log files in bytes.
func (l *Log) Size() int64 {
	var n int64
	for _, s := range l.segments {
		n += s.size
	}
	return n
}

// usable returns why l can no longer be used: closed, or failed on a
// disk error ([ErrLogFailed], wrapping the failure's error); nil if it can.
func (l *Log) usable() error {
	if l.closed {
		return ErrLogClosed
	}
	if l.failed != nil {
		return fmt.Errorf("%w: %w", ErrLogFailed, l.failed)
	}
	return nil
}

// fail takes l offline on err, the error of a change to its files that may
// have left them and l's segments apart (Kafka's
// LogDirFailureChannel.maybeAddOfflineLogDir on an IOException): every
// later call but Close answers [ErrLogFailed]. It returns err as it is.
func (l *Log) fail(err error) error {
	if err != nil && l.failed == nil {
		l.failed = err
	}
	return err
}

func (l *Log) active() *Segment { return l.segments[len(l.segments)-1] }

// lookupBuf returns the buffer lookups scan batch headers through, made when
// first needed.
func (l *Log) lookupBuf() []byte {
	if l.buf == nil {
		l.buf = make([]byte, lookupBufferSize)
	}
	return l.buf
}

// floorSegment returns the index of the last segment whose base offset ≤ offset, or -1.
func (l *Log) floorSegment(offset int64) int {
	lo, hi := 0, len(l.segments)
	for lo < hi {
		mid := (lo + hi) / 2
		if l.segments[mid].baseOffset <= offset {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// rollJitter draws a segment's roll jitter (LogConfig.randomSegmentJitter).
func (l *Log) rollJitter() int64 {
	if l.cfg.SegmentJitterMs == 0 || l.rnd == nil {
		return 0
	}
	return l.rnd.Int64N(min(l.cfg.SegmentJitterMs, l.cfg.SegmentMs))
}

// Flush makes every segment holding offsets below offset durable (fsync of the .log
// and indexes of each segment from the recovery point up, each file once, plus the
// directory if segments were created, renamed or deleted) and moves the recovery point
// to offset (UnifiedLog.flush). An offset beyond the LEO flushes to the LEO.
func (l *Log) Flush(offset int64) error {
	if err := l.usable(); err != nil {
		return err
	}
	offset = min(offset, l.nextOffset)
	if err := l.flushRange(l.recoveryPoint, offset, false); err != nil {
		return l.fail(err)
	}
	if offset > l.recoveryPoint {
		l.recoveryPoint = offset
		l.unflushedMessages = 0
	}
	return nil
}

// flushRange fsyncs the segments holding offsets in [from, to), and the active
// segment too if active, then the directory if its entries changed.
func (l *Log) flushRange(from, to int64, active bool) error {
	for i, s := range l.segments {
		last := i == len(l.segments)-1
		if (l.upperBound(i) > from && s.baseOffset < to) || (active && last) {
			if err := s.flush(); err != nil {
				return err
			}
		}
	}
	return l.syncDir()
}

// WriteBackIndexes writes the index entries appended since the last flush to their
// files, without fsync: afterwards the files read as Kafka's mmapped indexes do in the
// page cache of a live broker (what kafka-dump-log shows). Nothing needs it for
// correctness: Flush, roll and Close write entries back themselves.
func (l *Log) WriteBackIndexes() error {
	if err := l.usable(); err != nil {
		return err
	}
	for _, s := range l.segments {
		if err := s.writeBackIndexes(); err != nil {
			return l.fail(fmt.Errorf("kafkalog: write back indexes of %s: %w", l.dir, err))
		}
	}
	return nil
}

// upperBound returns the offset after segment i's range: the next segment's base
// offset, or the LEO for the active segment.
func (l *Log) upperBound(i int) int64 {
	if i+1 < len(l.segments) {
		return l.segments[i+1].baseOffset
	}
	return l.nextOffset
}

// syncDir makes the directory's entries durable if they changed.
func (l *Log) syncDir() error {
	if !l.dirDirty {
		return nil
	}
	if err := l.fsys.SyncDir(l.dir); err != nil {
		return fmt.Errorf("kafkalog: sync dir %s: %w", l.dir, err)
	}
	l.dirDirty = false
	return nil
}

// Close shuts the log down cleanly: it appends the active segment's final time-index
// entry, trims its indexes, flushes everything and closes the files. The recovery
// point becomes the LEO. Writing the clean shutdown marker is the data dir's job
// (DataDir.Close), after every log is closed.
func (l *Log) Close() error {
	if l.closed {
		return nil
	}
	if l.failed != nil {
		// Its files are as the failure left them: nothing more is written;
		// opening the directory again recovers them.
		l.closed = true
		return errors.Join(fmt.Errorf("kafkalog: close log %s: %w: %w", l.dir, ErrLogFailed, l.failed), l.closeSegments())
	}
	// The final time-index entry, as every segment's close appends it: one
	// the index refuses is left out (Segment.close).
	active := l.active()
	_ = active.appendFinalTimeEntry()
	err := active.trimIndexes()
	if err == nil {
		err = l.flushRange(l.recoveryPoint, l.nextOffset, true)
	}
	l.recoveryPoint = l.nextOffset
	l.closed = true
	if cerr := l.closeSegments(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("kafkalog: close log %s: %w", l.dir, err)
	}
	return nil
}

func (l *Log) closeSegments() error {
	var errs []error
	for _, s := range l.segments {
		errs = append(errs, s.close())
	}
	return errors.Join(errs...)
}

// Append errors. A rejected append leaves the log as it was; the broker answers the
// producer with the error code ErrorCode gives and goes on.
var (
	// ErrRecordTooLarge means a batch is larger than max.message.bytes (Kafka:
	// RecordTooLargeException, error code MESSAGE_TOO_LARGE). Only a leader append
	// checks it: a follower takes what its leader accepted (UnifiedLog.appendAsFollower
	// appends with ignoreRecordSize), even after max.message.bytes was lowered.
	ErrRecordTooLarge = errors.New("kafkalog: batch larger than max.message.bytes")
	// ErrAppendTooLarge means the batches of one append are together larger than
	// segment.bytes (Kafka: RecordBatchTooLargeException, error code
	// RECORD_LIST_TOO_LARGE), for a leader and a follower alike: segment.bytes is a roll
	// threshold, but UnifiedLog.append (Kafka 3.7, and trunk of October 2024) refuses an
	// append that no segment could hold, after checking each batch. The log does not roll
	// to make room for it.
	ErrAppendTooLarge = errors.New("kafkalog: append larger than segment.bytes")
	// ErrUnexpectedOffset means a follower append whose offsets do not increase or
	// start below the LEO (Kafka: UnexpectedAppendOffsetException, "out of order
	// offsets").
	ErrUnexpectedOffset = errors.New("kafkalog: append offsets do not increase")
)

// ErrorCode returns the code and name of the error Kafka's broker answers for err, as
// Errors.forException maps Kafka's exceptions (Errors.java): 0 NONE for nil,
// 10 MESSAGE_TOO_LARGE, 18 RECORD_LIST_TOO_LARGE, 2 CORRUPT_MESSAGE for a batch that
// fails its checks, 87 INVALID_RECORD, 1 OFFSET_OUT_OF_RANGE, 47
// INVALID_PRODUCER_EPOCH, 48 INVALID_TXN_STATE, 52 TRANSACTION_COORDINATOR_FENCED,
// and -1 UNKNOWN_SERVER_ERROR for anything else.
func ErrorCode(err error) (code int16, name string) {
	switch {
	case err == nil:
		return 0, "NONE"
	case errors.Is(err, ErrRecordTooLarge):
		return 10, "MESSAGE_TOO_LARGE"
	case errors.Is(err, ErrAppendTooLarge):
		return 18, "RECORD_LIST_TOO_LARGE"
	case errors.Is(err, ErrInvalidRecord):
		return 87, "INVALID_RECORD"
	case errors.Is(err, ErrCorruptBatch), errors.Is(err, ErrTruncated), errors.Is(err, ErrUnknownMagic),
		errors.Is(err, ErrVarintOverflow), errors.Is(err, ErrUnknownCompression):
		return 2, "CORRUPT_MESSAGE"
	case errors.Is(err, ErrOffsetOutOfRange):
		return 1, "OFFSET_OUT_OF_RANGE"
	case errors.Is(err, ErrInvalidProducerEpoch):
		return 47, "INVALID_PRODUCER_EPOCH"
	case errors.Is(err, ErrInvalidTxnState):
		return 48, "INVALID_TXN_STATE"
	case errors.Is(err, ErrCoordinatorFenced):
		return 52, "TRANSACTION_COORDINATOR_FENCED"
	}
	return -1, "UNKNOWN_SERVER_ERROR"
}

// AppendInfo describes an append (Kafka's LogAppendInfo).
type AppendInfo struct {
	// FirstOffset and LastOffset are the first and last offsets of the appended batches.
	FirstOffset, LastOffset int64
	// MaxTimestamp is the largest batch max timestamp, and OffsetOfMaxTimestamp the
	// last offset of the batch that has it.
	MaxTimestamp, OffsetOfMaxTimestamp int64
	// LogAppendTime is the time stamped on the batches with LogAppendTime, else -1.
	LogAppendTime int64
	// Batches and Records count what was appended; Bytes is its size.
	Batches, Records int
	Bytes            int
}

// AppendAsLeader appends the batches in records as the partition leader in leaderEpoch:
// it validates each (max.message.bytes, length, magic, CRC), assigns offsets from the
// LEO and stamps the leader epoch in place (both outside the CRC; with
// message.timestamp.type=LogAppendTime it also stamps nowMs as each batch's max
// timestamp and recomputes the CRC), rolls if needed and writes everything with one
// WriteAt. records is modified in place. The epoch cache learns leaderEpoch at the
// first offset if it is new.
func (l *Log) AppendAsLeader(records []byte, leaderEpoch int32, nowMs int64) (AppendInfo, error) {
	return l.appendAsLeader(records, leaderEpoch, nowMs, false)
}

// AppendAsLeaderNoCopy is [Log.AppendAsLeader] for a caller that hands
// records over: on a file system that can ([vfs.NoCopyWriter], as
// vfs.MemFS), the segment file keeps records (as stamped) as its bytes
// rather than a copy of them, so records must never change once it is
// called (a failed append may have kept part of them), by the caller or
// anyone else. A simulation that keeps many logs in memory appends so.
func (l *Log) AppendAsLeaderNoCopy(records []byte, leaderEpoch int32, nowMs int64) (AppendInfo, error) {
	return l.appendAsLeader(records, leaderEpoch, nowMs, true)
}

func (l *Log) appendAsLeader(records []byte, leaderEpoch int32, nowMs int64, noCopy bool) (AppendInfo, error) {
	if err := l.usable(); err != nil {
		return AppendInfo{}, err
	}
	info, err := l.analyze(records, true, leaderEpoch, nowMs)
	if err != nil {
		return AppendInfo{}, err
	}
	if err := l.checkProducers(); err != nil {
		return AppendInfo{}, fmt.Errorf("kafkalog: append to %s: %w", l.dir, err)
	}
	return info, l.fail(l.appendValidated(records, info, nowMs, noCopy, func() error {
		return l.assignEpoch(leaderEpoch, info.FirstOffset)
	}))
}

// AppendAsFollower appends batches fetched from the leader: offsets and leader epochs
// are kept, and must increase from at least the LEO (gaps are fine: the leader may have
// compacted). Each batch of a newer epoch starts that epoch in the epoch cache; an
// older one removes the entries it contradicts (Kafka 2.1+), or is ignored with
// [WithOnlyNewerEpochsOnAppend] (0.11 to 2.0). Like
// Kafka's (UnifiedLog.appendAsFollower, ignoreRecordSize), it does not check
// max.message.bytes: the leader accepted the batches; segment.bytes still limits the
// whole append (ErrAppendTooLarge).
func (l *Log) AppendAsFollower(records []byte, nowMs int64) (AppendInfo, error) {
	return l.appendAsFollower(records, nowMs, false)
}

// AppendAsFollowerNoCopy is [Log.AppendAsFollower] for a caller that hands
// records over, as [Log.AppendAsLeaderNoCopy]: records must never change
// once it is called.
func (l *Log) AppendAsFollowerNoCopy(records []byte, nowMs int64) (AppendInfo, error) {
	return l.appendAsFollower(records, nowMs, true)
}

func (l *Log) appendAsFollower(records []byte, nowMs int64, noCopy bool) (AppendInfo, error) {
	if err := l.usable(); err != nil {
		return AppendInfo{}, err
	}
	info, err := l.analyze(records, false, 0, nowMs)
	if err != nil {
		return AppendInfo{}, err
	}
	return info, l.fail(l.appendValidated(records, info, nowMs, noCopy, func() error {
		for p := 0; p < len(records); {
			h, _ := ReadBatchHeader(records[p:])
			if err := l.assignEpoch(h.PartitionLeaderEpoch, h.BaseOffset); err != nil {
				return err
			}
			p += int(h.Size())
		}
		return nil
	}))
}

// assignEpoch records a batch's leader epoch as it is appended, as Kafka's
// Log.append does for every batch: from 2.1 (3.7's UnifiedLog.append,
// maybeAssignEpochStartOffset) the cache's Assign, which does nothing for
// the latest epoch and removes the entries an older one contradicts; with
// onlyNewerEpochs, 0.11 to 2.0's LeaderEpochFileCache.assign, which takes
// only an epoch newer than the latest, at or after its start.
func (l *Log) assignEpoch(epoch int32, offset int64) error {
	if epoch < 0 {
		return nil
	}
	if last, ok := l.epochs.LatestEntry(); ok && l.onlyNewerEpochs && (epoch <= last.Epoch || offset < last.StartOffset) {
		return nil
	}
	return l.epochs.Assign(epoch, offset)
}

// analyze validates every batch of records and, as leader, assigns offsets, the leader
// epoch and LogAppendTime in place. The checks come in Kafka's order
// (UnifiedLog.analyzeAndValidateRecords, then append): per batch max.message.bytes
// (leader only) before the CRC, then offsets, then the size of the whole append
// against segment.bytes.
func (l *Log) analyze(records []byte, leader bool, epoch int32, nowMs int64) (AppendInfo, error) {
	info := AppendInfo{FirstOffset: -1, LastOffset: -1, MaxTimestamp: NoTimestamp, LogAppendTime: -1, Bytes: len(records)}
	l.scratch = l.scratch[:0]
	if len(records) == 0 {
		return info, fmt.Errorf("kafkalog: append to %s: %w: no batches", l.dir, ErrTruncated)
	}
	next, prevLast := l.nextOffset, l.nextOffset-1
	for p := 0; p < len(records); {
		if size, _, err := PeekBatch(records[p:]); leader && err == nil && size > int64(l.cfg.MaxMessageBytes) {
			return info, fmt.Errorf("kafkalog: append to %s: %w: batch of %d bytes at position %d, max.message.bytes %d", l.dir, ErrRecordTooLarge, size, p, l.cfg.MaxMessageBytes)
		}
		h, n, err := CheckBatch(records[p:])
		if err != nil {
			var be *BatchError
			if errors.As(err, &be) {
				be.Pos = int64(p)
			}
			return info, fmt.Errorf("kafkalog: append to %s: %w", l.dir, err)
		}
		if h.LastOffsetDelta < 0 {
			return info, fmt.Errorf("kafkalog: append to %s: %w: lastOffsetDelta %d", l.dir, ErrCorruptBatch, h.LastOffsetDelta)
		}
		if leader {
			h.BaseOffset, h.PartitionLeaderEpoch = next, epoch
			stampLeader(records[p:p+n], &h, l.cfg.MessageTimestampType == LogAppendTime, nowMs)
			next = h.NextOffset()
		} else if h.BaseOffset <= prevLast {
			return info, fmt.Errorf("kafkalog: append to %s: %w: batch at %d after offset %d", l.dir, ErrUnexpectedOffset, h.BaseOffset, prevLast)
		}
		prevLast = h.LastOffset()
		info.add(&h)
		l.noteProducerBatch(&h, records[p:p+n])
		p += n
	}
	if int64(len(records)) > l.cfg.SegmentBytes {
		return info, fmt.Errorf("kafkalog: append to %s: %w: %d bytes, segment.bytes %d", l.dir, ErrAppendTooLarge, len(records), l.cfg.SegmentBytes)
	}
	if leader && l.cfg.MessageTimestampType == LogAppendTime {
		info.LogAppendTime = nowMs
	}
	return info, nil
}

func (info *AppendInfo) add(h *BatchHeader) {
	if info.FirstOffset < 0 {
		info.FirstOffset = h.BaseOffset
	}
	info.LastOffset = h.LastOffset()
	if h.MaxTimestamp > info.MaxTimestamp {
		info.MaxTimestamp, info.OffsetOfMaxTimestamp = h.MaxTimestamp, h.LastOffset()
	}
	info.Batches++
	info.Records += int(h.NumRecords)
}

// stampLeader writes the assigned base offset and leader epoch into the batch b (not
// covered by the CRC), and with logAppendTime the timestamp type and max timestamp
// (covered: the CRC is recomputed), as Kafka's LogValidator does in place.
func stampLeader(b []byte, h *BatchHeader, logAppendTime bool, nowMs int64) {
	binary.BigEndian.PutUint64(b, uint64(h.BaseOffset))
	binary.BigEndian.PutUint32(b[posLeaderEpoch:], uint32(h.PartitionLeaderEpoch))
	if !logAppendTime {
		return
	}
	h.Attributes = h.Attributes.WithTimestampType(LogAppendTime)
	h.MaxTimestamp = nowMs
	binary.BigEndian.PutUint16(b[posAttributes:], uint16(h.Attributes))
	binary.BigEndian.PutUint64(b[posMaxTimestamp:], uint64(nowMs))
	h.CRC = CRC32C(b[posAttributes:])
	binary.BigEndian.PutUint32(b[posCRC:], h.CRC)
}

// appendValidated rolls if needed, writes records to the active segment, moves the LEO
// and updates the epoch cache; a write error leaves the LEO where it was.
func (l *Log) appendValidated(records []byte, info AppendInfo, nowMs int64, noCopy bool, epochs func() error) error {
	seg, err := l.maybeRoll(int64(len(records)), info, nowMs)
	if err != nil {
		return err
	}
	if err := seg.appendBytes(info.LastOffset, info.MaxTimestamp, info.OffsetOfMaxTimestamp, records, noCopy); err != nil {
		return err
	}
	l.nextOffset = info.LastOffset + 1
	if err := l.applyProducerBatches(seg); err != nil {
		return err
	}
	if err := epochs(); err != nil {
		return err
	}
	l.unflushedMessages += int64(info.Records)
	if l.unflushedMessages >= l.cfg.FlushIntervalMessages {
		return l.Flush(l.nextOffset)
	}
	return nil
}

// TruncateTo removes every record at or after offset, as a follower does before it
// fetches from a new leader (UnifiedLog.truncateTo): segments whose base offset is
// above offset are deleted, the segment holding offset is cut before the first batch
// whose last offset reaches it and becomes the active segment, the LEO becomes offset
// (or, if offset falls inside a batch, that batch's base offset: Kafka would leave
// the LEO at offset with the batch gone, which only happens if a caller truncates
// between batch boundaries),
// the recovery point and log start offset drop to it if above, and the epoch cache
// forgets epochs starting at or after it. Offsets at or beyond the LEO change nothing.
//
// Unlike Kafka, whose FileRecords.truncateTo does not fsync and leaves the cut in the
// page cache, the cut .log is fsynced at once, so that a power cut cannot bring
// truncated batches back (Kafka relies on leader-epoch truncation to remove them again).
func (l *Log) TruncateTo(offset int64, nowMs int64) error {
	if err := l.usable(); err != nil {
		return err
	}
	if offset < 0 {
		return fmt.Errorf("%w: truncate %s to %d", ErrOffsetOutOfRange, l.dir, offset)
	}
	if offset >= l.nextOffset {
		return nil
	}
	if l.segments[0].baseOffset > offset {
		return l.TruncateFullyAndStartAt(offset, nowMs)
	}
	return l.fail(l.truncateTo(offset, nowMs))
}

func (l *Log) truncateTo(offset int64, nowMs int64) error {
	i := l.floorSegment(offset)
	later := append([]*Segment(nil), l.segments[i+1:]...)
	l.removeSegments(later)
	if err := l.deleteSegmentFiles(later, nowMs); err != nil {
		return err
	}
	// The later segments' deletion is made durable before the cut: a power cut between
	// a durable cut and undone renames would bring the truncated segments back after a
	// gap, as if they followed the cut.
	if err := l.syncDir(); err != nil {
		return err
	}
	s := l.segments[i]
	offset, err := s.truncateTo(offset, int(l.cfg.SegmentIndexBytes), nowMs, l.lookupBuf())
	if err != nil {
		return err
	}
	l.nextOffset = offset
	if err := l.rebuildProducerState(); err != nil {
		return err
	}
	// Kafka lowers the recovery point to offset; we lower it to the truncated
	// segment's base, so that a crash before the next flush recovers that segment and
	// rebuilds its indexes, whose truncation is not durable.
	l.recoveryPoint = min(l.recoveryPoint, s.baseOffset)
	l.logStartOffset = min(l.logStartOffset, offset)
	if err := l.epochs.TruncateFromEnd(offset); err != nil {
		return err
	}
	return l.syncDir()
}

// TruncateFullyAndStartAt deletes every segment and starts an empty log at offset
// (UnifiedLog.truncateFullyAndStartAt): what a follower does when the leader's log
// starts beyond its own LEO.
func (l *Log) TruncateFullyAndStartAt(offset int64, nowMs int64) error {
	if err := l.usable(); err != nil {
		return err
	}
	return l.fail(l.truncateFully(offset, nowMs))
}

func (l *Log) truncateFully(offset int64, nowMs int64) error {
	all := append([]*Segment(nil), l.segments...)
	l.removeSegments(all)
	if err := l.deleteSegmentFiles(all, nowMs); err != nil {
		return err
	}
	s, err := createSegment(l.fsys, l.dir, offset, "", l.segmentParams(nowMs))
	if err != nil {
		return err
	}
	l.segments = append(l.segments, s)
	l.nextOffset, l.logStartOffset, l.recoveryPoint = offset, offset, offset
	l.producers.reset()
	if err := l.epochs.TruncateFromEnd(0); err != nil {
		return err
	}
	return l.syncDir()
}

// DeleteRecords moves the log start offset forward to offset (the DeleteRecords API,
// UnifiedLog.maybeIncrementLogStartOffset); it cannot pass the high watermark the
// caller passes. Offsets below it can no longer be read; the segments wholly below it
// are deleted by the next DeleteOldSegments. It returns the new log start offset.
func (l *Log) DeleteRecords(offset, highWatermark int64) (int64, error) {
	if err := l.usable(); err != nil {
		return 0, err
	}
	if offset > highWatermark || offset > l.nextOffset {
		return l.logStartOffset, fmt.Errorf("%w: delete records before %d, high watermark %d, LEO %d", ErrOffsetOutOfRange, offset, highWatermark, l.nextOffset)
	}
	if offset > l.logStartOffset {
		if err := l.incrementLogStartOffset(offset); err != nil {
			return l.logStartOffset, l.fail(err)
		}
	}
	return l.logStartOffset, nil
}

func (l *Log) incrementLogStartOffset(offset int64) error {
	l.logStartOffset = offset
	// ProducerStateManager.onLogStartOffsetIncremented: the transactions
	// ended below it no longer hold the last stable offset back.
	l.producers.onHighWatermark(offset)
	return l.epochs.TruncateFromStart(offset)
}
