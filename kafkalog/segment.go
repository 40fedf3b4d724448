package kafkalog

import (
	"errors"
	"fmt"
	"io/fs"
	"math"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrOffsetOverflow means a batch's offsets cannot be stored relative to its segment's
// base offset (Kafka: LogSegmentOffsetOverflowException): the relative offset must fit
// in [0, MaxInt32].
var ErrOffsetOverflow = errors.New("kafkalog: offset does not fit the segment")

// Segment is one segment of a partition log (LogSegment.java): the .log file of
// batches whose offsets start at BaseOffset, and its offset and time indexes. A Segment
// is not safe for concurrent use.
type Segment struct {
	fsys       vfs.FS
	dir        string
	baseOffset int64
	suffix     string // "" for a live segment, CleanedSuffix or SwapSuffix for cleaner output

	log  vfs.File
	size int64
	oidx *OffsetIndex
	tidx *TimeIndex
	// txn is the transaction index, nil until the segment's first aborted
	// transaction creates its file (Kafka's TransactionIndex opens its file
	// lazily: a segment without one has no .txnindex).
	txn *TxnIndex
	// txnRebuild says recovery emptied txn: the log adds the segment's
	// aborted transactions again as it rebuilds its producer state.
	txnRebuild bool

	indexIntervalBytes       int64
	bytesSinceLastIndexEntry int64
	rollJitterMs             int64
	createdMs                int64

	maxTimestampSoFar         int64 // NoTimestamp until known
	offsetOfMaxTimestampSoFar int64
	firstBatchTimestamp       int64 // rollingBasedTimestamp; NoTimestamp if unknown
	firstBatchTimestampKnown  bool
}

// segmentParams are what a segment takes from the log's config.
type segmentParams struct {
	indexIntervalBytes int64
	maxIndexSize       int
	rollJitterMs       int64
	nowMs              int64
}

func (l *Log) segmentParams(nowMs int64) segmentParams {
	return segmentParams{
		indexIntervalBytes: l.cfg.IndexIntervalBytes,
		maxIndexSize:       int(l.cfg.SegmentIndexBytes),
		rollJitterMs:       l.rollJitter(),
		nowMs:              nowMs,
	}
}

// segmentPath returns the path of one of the segment's files.
func (s *Segment) path(suffix string) string {
	return s.fsys.PathJoin(s.dir, SegmentFileName(s.baseOffset, suffix)+s.suffix)
}

// createSegment creates a new empty segment at base, with preallocated indexes.
func createSegment(fsys vfs.FS, dir string, base int64, suffix string, p segmentParams) (*Segment, error) {
	s := newSegment(fsys, dir, base, suffix, p)
	var err error
	if s.log, err = fsys.Create(s.path(LogSuffix)); err != nil {
		return nil, fmt.Errorf("kafkalog: create segment: %w", err)
	}
	if err = s.openIndexes(p.maxIndexSize, true); err != nil {
		s.log.Close()
		return nil, err
	}
	return s, nil
}

func newSegment(fsys vfs.FS, dir string, base int64, suffix string, p segmentParams) *Segment {
	return &Segment{
		fsys: fsys, dir: dir, baseOffset: base, suffix: suffix,
		indexIntervalBytes: p.indexIntervalBytes, rollJitterMs: p.rollJitterMs, createdMs: p.nowMs,
		maxTimestampSoFar: NoTimestamp, offsetOfMaxTimestampSoFar: base, firstBatchTimestamp: NoTimestamp,
	}
}

// loadSegment opens an existing segment. Its indexes keep their length (an inactive
// segment's indexes are full, as in Kafka); missing index files are created empty. It
// reports whether an index was missing or fails its sanity check, in which case the
// caller must recover the segment to rebuild them.
func loadSegment(fsys vfs.FS, dir string, base int64, suffix string, p segmentParams) (*Segment, bool, error) {
	s := newSegment(fsys, dir, base, suffix, p)
	var err error
	if s.log, err = fsys.OpenReadWrite(s.path(LogSuffix)); err != nil {
		return nil, false, fmt.Errorf("kafkalog: open segment: %w", err)
	}
	if s.size, err = s.log.Size(); err != nil {
		s.log.Close()
		return nil, false, fmt.Errorf("kafkalog: open segment %s: %w", s.log.Name(), err)
	}
	missing := !s.exists(IndexSuffix) || !s.exists(TimeIndexSuffix)
	if err = s.openIndexes(-1, false); err != nil {
		s.log.Close()
		return nil, false, err
	}
	if err = s.openTxnIndex(); err != nil {
		s.closeHandles()
		return nil, false, err
	}
	// A damaged .txnindex fails LogSegment.sanityCheck with a
	// CorruptIndexException, and LogLoader recovers the segment.
	if missing || s.oidx.SanityCheck() != nil || s.tidx.SanityCheck() != nil || s.txn != nil && s.txn.SanityCheck() != nil {
		return s, true, nil
	}
	s.loadMaxTimestamp()
	return s, false, nil
}

func (s *Segment) exists(suffix string) bool {
	_, err := s.fsys.Stat(s.path(suffix))
	return err == nil
}

// openIndexes opens (creating if missing) both index files. With maxIndexSize < 0
// each keeps its current length.
func (s *Segment) openIndexes(maxIndexSize int, create bool) error {
	open := s.fsys.OpenReadWrite
	if create {
		open = s.fsys.Create
	}
	of, err := open(s.path(IndexSuffix))
	if err != nil {
		return fmt.Errorf("kafkalog: open offset index: %w", err)
	}
	if s.oidx, err = OpenOffsetIndex(of, s.baseOffset, sizeOr(of, maxIndexSize), true); err != nil {
		of.Close()
		return fmt.Errorf("kafkalog: open offset index: %w", err)
	}
	tf, err := open(s.path(TimeIndexSuffix))
	if err != nil {
		s.oidx.Close()
		return fmt.Errorf("kafkalog: open time index: %w", err)
	}
	if s.tidx, err = OpenTimeIndex(tf, s.baseOffset, sizeOr(tf, maxIndexSize), true); err != nil {
		tf.Close()
		s.oidx.Close()
		return fmt.Errorf("kafkalog: open time index: %w", err)
	}
	return nil
}

// openTxnIndex opens the segment's .txnindex if it exists.
func (s *Segment) openTxnIndex() error {
	if !s.exists(TxnIndexSuffix) {
		return nil
	}
	f, err := s.fsys.OpenReadWrite(s.path(TxnIndexSuffix))
	if err != nil {
		return fmt.Errorf("kafkalog: open transaction index: %w", err)
	}
	if s.txn, err = OpenTxnIndex(f, s.baseOffset); err != nil {
		f.Close()
		return err
	}
	return nil
}

// appendAbortedTxn records an aborted transaction whose marker lies in the
// segment, creating the .txnindex on the first (LogSegment.updateTxnIndex).
func (s *Segment) appendAbortedTxn(t AbortedTxn) error {
	if s.txn == nil {
		f, err := s.fsys.Create(s.path(TxnIndexSuffix))
		if err != nil {
			return fmt.Errorf("kafkalog: create transaction index: %w", err)
		}
		if s.txn, err = OpenTxnIndex(f, s.baseOffset); err != nil {
			f.Close()
			return err
		}
	}
	return s.txn.Append(t)
}

// AbortedTxns returns the aborted transactions of the segment's .txnindex,
// in marker order (none if it has no such file).
func (s *Segment) AbortedTxns() []AbortedTxn {
	if s.txn == nil {
		return nil
	}
	return s.txn.AllAbortedTxns()
}

// sizeOr returns max if it is not negative, else the file's current size.
func sizeOr(f vfs.File, max int) int {
	if max >= 0 {
		return max
	}
	n, err := f.Size()
	if err != nil || n > math.MaxInt32 {
		return 0
	}
	return int(n)
}

// loadMaxTimestamp takes the segment's largest timestamp from the time index's last
// entry, as Kafka does for a segment it did not recover.
func (s *Segment) loadMaxTimestamp() {
	if e := s.tidx.LastEntry(); e.Timestamp > s.maxTimestampSoFar {
		s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = e.Timestamp, e.Offset
	}
}

// BaseOffset returns the offset the segment's file is named after.
func (s *Segment) BaseOffset() int64 { return s.baseOffset }

// Size returns the size of the .log file in bytes.
func (s *Segment) Size() int64 { return s.size }

// append writes already-validated batches whose offsets run to largestOffset at the
// end of the .log, in one WriteAt, and adds index entries every index.interval.bytes
// (LogSegment.append): the entry is (largestOffset, position where the append starts).
func (s *Segment) append(largestOffset, largestTimestamp, offsetOfMaxTimestamp int64, records []byte) error {
	return s.appendBytes(largestOffset, largestTimestamp, offsetOfMaxTimestamp, records, false)
}

func (s *Segment) writeNoCopy(p []byte, off int64) (int, error) {
	return vfs.WriteAtNoCopy(s.log, p, off)
}

// appendBytes is append; with noCopy the file keeps records as its bytes if
// it can (vfs.WriteAtNoCopy), and records must never change afterwards.
func (s *Segment) appendBytes(largestOffset, largestTimestamp, offsetOfMaxTimestamp int64, records []byte, noCopy bool) error {
	if len(records) == 0 {
		return nil
	}
	if err := s.checkOffset(largestOffset); err != nil {
		return err
	}
	pos := s.size
	write := s.log.WriteAt
	if noCopy {
		write = s.writeNoCopy
	}
	if _, err := write(records, pos); err != nil {
		return fmt.Errorf("kafkalog: append to %s at %d: %w", s.log.Name(), pos, err)
	}
	s.size += int64(len(records))
	if pos == 0 {
		s.firstBatchTimestamp, s.firstBatchTimestampKnown = largestTimestamp, true
	}
	if largestTimestamp > s.maxTimestampSoFar {
		s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = largestTimestamp, offsetOfMaxTimestamp
	}
	if s.bytesSinceLastIndexEntry > s.indexIntervalBytes {
		if err := s.addIndexEntry(largestOffset, pos); err != nil {
			return err
		}
	}
	s.bytesSinceLastIndexEntry += int64(len(records))
	return nil
}

// addIndexEntry adds (offset, pos) to the offset index and the largest timestamp so
// far to the time index. A full index takes no more entries (an active segment rolls
// before that; a cleaned or recovered segment written under a smaller
// segment.index.bytes keeps a sparser index, which lookups handle by scanning further).
func (s *Segment) addIndexEntry(offset, pos int64) error {
	s.bytesSinceLastIndexEntry = 0
	if s.oidx.IsFull() || s.tidx.IsFull() {
		return nil
	}
	if err := s.oidx.Append(offset, pos); err != nil {
		return fmt.Errorf("kafkalog: segment %d: %w", s.baseOffset, err)
	}
	if err := s.tidx.MaybeAppend(s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar, false); err != nil {
		return fmt.Errorf("kafkalog: segment %d: %w", s.baseOffset, err)
	}
	return nil
}

// checkOffset fails with ErrOffsetOverflow if offset cannot be stored relative to the
// base offset (LogSegment.ensureOffsetInRange).
func (s *Segment) checkOffset(offset int64) error {
	if !s.canHold(offset) {
		return fmt.Errorf("%w: offset %d in segment %d", ErrOffsetOverflow, offset, s.baseOffset)
	}
	return nil
}

func (s *Segment) canHold(offset int64) bool {
	return offset >= s.baseOffset && offset-s.baseOffset <= math.MaxInt32
}

// largestTimestamp is what retention.ms compares: the largest record timestamp, or
// the .log's modification time if no batch has a timestamp (LogSegment.largestTimestamp).
func (s *Segment) largestTimestamp() int64 {
	if s.maxTimestampSoFar >= 0 {
		return s.maxTimestampSoFar
	}
	return s.lastModified()
}

func (s *Segment) lastModified() int64 {
	fi, err := s.fsys.Stat(s.path(LogSuffix))
	if err != nil {
		return 0
	}
	return fi.ModTime().UnixMilli()
}

// onBecomeInactive is done when the segment stops being the active one (roll): the
// final time-index entry, and both indexes trimmed to their entries.
func (s *Segment) onBecomeInactive() error {
	if err := s.appendFinalTimeEntry(); err != nil {
		return err
	}
	return s.trimIndexes()
}

// trimIndexes trims both indexes to their entries.
func (s *Segment) trimIndexes() error {
	if err := s.oidx.TrimToValidSize(); err != nil {
		return err
	}
	return s.tidx.TrimToValidSize()
}

// appendFinalTimeEntry adds (largest timestamp, its offset) to the time index in the
// reserved last slot if it is newer than the last entry (timeIndex.maybeAppend with
// skipFullCheck, on roll, close and after recovery; it skips an entry that is not
// newer even when the index is full).
func (s *Segment) appendFinalTimeEntry() error {
	if err := s.tidx.MaybeAppend(s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar, true); err != nil {
		return fmt.Errorf("kafkalog: segment %d: %w", s.baseOffset, err)
	}
	return nil
}

// resizeIndexes grows both indexes back to maxIndexSize (the active segment).
func (s *Segment) resizeIndexes(maxIndexSize int) error {
	if _, err := s.oidx.Resize(maxIndexSize); err != nil {
		return err
	}
	_, err := s.tidx.Resize(maxIndexSize)
	return err
}

// writeBackIndexes writes both indexes' dirty entries to their files, without fsync.
func (s *Segment) writeBackIndexes() error {
	if err := s.oidx.writeBack(); err != nil {
		return err
	}
	return s.tidx.writeBack()
}

// flush fsyncs the .log and both indexes (LogSegment.flush).
func (s *Segment) flush() error {
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("kafkalog: flush %s: %w", s.log.Name(), err)
	}
	if err := s.oidx.Sync(); err != nil {
		return fmt.Errorf("kafkalog: flush offset index of %d: %w", s.baseOffset, err)
	}
	if err := s.tidx.Sync(); err != nil {
		return fmt.Errorf("kafkalog: flush time index of %d: %w", s.baseOffset, err)
	}
	if s.txn != nil {
		if err := s.txn.Sync(); err != nil {
			return fmt.Errorf("kafkalog: flush transaction index of %d: %w", s.baseOffset, err)
		}
	}
	return nil
}

// close appends the final time-index entry, trims the indexes and closes the files
// (LogSegment.close). An entry the time index refuses (its last entry damaged on disk
// names a later offset) is left out, and the files are closed all the same: Kafka 3.7's
// LogSegment.close swallows maybeAppend's exception with a warning (Utils.swallow).
func (s *Segment) close() error {
	_ = s.appendFinalTimeEntry()
	var txn error
	if s.txn != nil {
		txn = s.txn.Close()
	}
	return errors.Join(s.oidx.Close(), s.tidx.Close(), txn, s.log.Close())
}

// closeHandles closes the files without writing anything (after a failure).
func (s *Segment) closeHandles() {
	s.oidx.idx.f.Close()
	s.tidx.idx.f.Close()
	if s.txn != nil {
		s.txn.f.Close()
	}
	s.log.Close()
}

// renameSuffix renames all the segment's files from its current state suffix to to
// (".deleted", ".swap", ""), as Kafka's LogSegment.changeFileSuffixes. The .log goes
// last, so that a crash in between leaves the .log under its old name (the loader then
// rebuilds or removes the indexes). Missing index files are not an error.
func (s *Segment) renameSuffix(to string) error {
	for _, suf := range []string{TxnIndexSuffix, TimeIndexSuffix, IndexSuffix, LogSuffix} {
		from := s.path(suf)
		dst := s.fsys.PathJoin(s.dir, SegmentFileName(s.baseOffset, suf)+to)
		if err := s.fsys.Rename(from, dst); err != nil && !(suf != LogSuffix && errors.Is(err, fs.ErrNotExist)) {
			return fmt.Errorf("kafkalog: rename segment %d to %q: %w", s.baseOffset, to, err)
		}
	}
	s.suffix = to
	return nil
}

// truncateTo cuts the segment before the first batch whose last offset is ≥ offset
// and makes it ready to be the active segment again (LogSegment.truncateTo): index
// entries at or after offset go, the indexes grow back to maxIndexSize, the cut .log
// is fsynced, and the largest timestamp is recomputed. The fsync is ours: Kafka's
// FileRecords.truncateTo does not fsync, so a power cut can bring the cut batches
// back (Kafka removes them again by leader-epoch truncation; a log alone cannot). It returns the offset the log
// now ends at: offset, or the base offset of the cut batch if offset fell inside it.
func (s *Segment) truncateTo(offset int64, maxIndexSize int, nowMs int64, buf []byte) (int64, error) {
	at, found, err := s.translateOffset(offset, buf)
	if err != nil {
		return 0, err
	}
	end := offset
	if found && at.hdr.BaseOffset < offset {
		end = at.hdr.BaseOffset
	}
	offset = end
	if err := s.oidx.TruncateTo(offset); err != nil {
		return 0, err
	}
	if err := s.tidx.TruncateTo(offset); err != nil {
		return 0, err
	}
	if s.txn != nil {
		if err := s.txn.TruncateTo(offset); err != nil {
			return 0, err
		}
	}
	if err := s.resizeIndexes(maxIndexSize); err != nil {
		return 0, err
	}
	if found {
		if err := s.log.Truncate(at.pos); err != nil {
			return 0, fmt.Errorf("kafkalog: truncate %s to %d: %w", s.log.Name(), at.pos, err)
		}
		// Deliberately unlike Kafka's FileRecords.truncateTo, which does not fsync.
		if err := s.log.Sync(); err != nil {
			return 0, fmt.Errorf("kafkalog: truncate %s to %d: %w", s.log.Name(), at.pos, err)
		}
		s.size = at.pos
	}
	if s.size == 0 {
		s.createdMs = nowMs
		s.firstBatchTimestampKnown = false
	}
	s.bytesSinceLastIndexEntry = 0
	return end, s.reloadMaxTimestamp(buf)
}

// reloadMaxTimestamp recomputes the largest timestamp from the time index's last
// entry and the batches after it (LogSegment.readLargestTimestamp).
func (s *Segment) reloadMaxTimestamp(buf []byte) error {
	last := s.tidx.LastEntry()
	s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = last.Timestamp, last.Offset
	sc := newBatchScanner(s.log, s.log.Name(), s.oidx.Lookup(last.Offset).Position, s.size, buf, false)
	for sc.Next() {
		if sc.hdr.MaxTimestamp > s.maxTimestampSoFar {
			s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = sc.hdr.MaxTimestamp, sc.hdr.LastOffset()
		}
	}
	return sc.err
}
