package kafkalog

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/kafkalive/kafkalive/vfs"
)

// RecoveryReport says what opening a log found and what recovery cut. Recovery never
// cuts anything but bytes that are not whole valid batches (and, after a cut, the
// segments that follow, which Kafka no longer trusts).
type RecoveryReport struct {
	// CleanShutdown is whether the log was opened after a clean shutdown.
	CleanShutdown bool
	// SegmentsRecovered counts segments whose batches were validated and indexes rebuilt.
	SegmentsRecovered int
	// Truncations lists each segment cut at its first invalid byte.
	Truncations []Truncation
	// SegmentsDeleted lists the base offsets of segments deleted because an earlier
	// segment was truncated, or because the whole log lay below the log start offset.
	SegmentsDeleted []int64
	// FilesRemoved lists leftover files removed (.deleted, .cleaned, swapped-out
	// segments, orphan indexes).
	FilesRemoved []string
	// SwapsCompleted lists cleaner .swap segments renamed into place.
	SwapsCompleted []int64
	// IndexesRebuilt lists segments whose indexes were missing or failed their sanity
	// check and were rebuilt (even after a clean shutdown, as Kafka does).
	IndexesRebuilt []int64
	// EpochsTruncated is whether the leader epoch cache lost entries beyond the
	// recovered log end offset.
	EpochsTruncated bool
	// Inconsistencies lists each disagreement between the files that the open found
	// and repaired: an index that does not match its .log, a last batch that is not
	// whole after a clean shutdown, a stray empty segment. Each names the file.
	Inconsistencies []string
	// Removed lists every file, and every tail of a .log, that the open removed, with
	// its size: what FilesRemoved, SegmentsDeleted and Truncations name, in bytes.
	Removed []Removal
}

// Removal is a file, or the tail of a .log, that opening a log removed.
type Removal struct {
	// File is the file's name in the partition directory.
	File string
	// Position is the first byte removed: 0 for a whole file.
	Position int64
	// Bytes is how many bytes went.
	Bytes int64
	// Reason says why.
	Reason string
}

// RemovedBytes sums the bytes of .log files (segments' data, cleaner output, deleted
// segments) that the open removed; index and other files are not counted.
func (r RecoveryReport) RemovedBytes() int64 {
	var n int64
	for _, rm := range r.Removed {
		if _, suffix, ok := ParseSegmentFileName(rm.File); ok && strings.HasPrefix(suffix, LogSuffix) {
			n += rm.Bytes
		}
	}
	return n
}

// ErrInconsistentLog means the files of a log directory contradict each other in a way
// that opening it cannot repair without cutting batches that pass their checks: two
// segments hold the same offsets, or a segment that must be cut is followed by segments
// that hold data. The open fails with a *FileError that wraps it and names the file and
// position; no .log is changed.
var ErrInconsistentLog = errors.New("kafkalog: log files contradict each other")

// FileError says which file, and where in it, an error is about.
type FileError struct {
	// Path is the file's path as the log opened it.
	Path string
	// Position is the byte position in the file.
	Position int64
	// Err is what is wrong; it wraps a sentinel (ErrInconsistentLog...).
	Err error
}

// Error says where and what: "data/t-0/00000000000000000000.log at position 420: ...".
func (e *FileError) Error() string {
	return fmt.Sprintf("%s at position %d: %v", e.Path, e.Position, e.Err)
}

// Unwrap returns the wrapped error, so that errors.Is finds the sentinel.
func (e *FileError) Unwrap() error { return e.Err }

// Truncation is one cut made by recovery.
type Truncation struct {
	// Segment is the base offset of the segment cut.
	Segment int64
	// Position is the size the segment's .log was cut to: the first invalid byte.
	Position int64
	// Bytes is how many bytes were cut.
	Bytes int64
	// Reason is the error that stopped validation, or "torn tail".
	Reason string
}

// load is LogLoader.load.
func (l *Log) load(o openOptions, nowMs int64) error {
	l.report.CleanShutdown = o.cleanShutdown
	if err := l.removeTempFiles(); err != nil {
		return err
	}
	needRecovery, err := l.loadSegments(nowMs)
	if err != nil {
		return err
	}
	l.logStartOffset = max(0, o.logStartOffset)
	if err := l.recoverSegments(o, needRecovery, nowMs); err != nil {
		return err
	}
	if err := l.finishLoad(o, nowMs); err != nil {
		return err
	}
	if err := l.rebuildProducerState(); err != nil {
		return err
	}
	return l.syncDir()
}

// removeTempFiles deletes *.deleted and *.cleaned files and the .swap files of an
// incomplete clean, then completes the remaining swaps: the segments a .swap replaces
// are deleted and the .swap files renamed into place (LogLoader, "first" to "third
// pass"). Files that are not segment files are left alone.
func (l *Log) removeTempFiles() error {
	names, err := l.fsys.List(l.dir)
	if err != nil {
		return err
	}
	minCleaned := int64(math.MaxInt64)
	var swaps []string
	for _, name := range names {
		base, suffix, ok := ParseSegmentFileName(name)
		switch {
		case !ok:
		case strings.HasSuffix(suffix, DeletedSuffix):
			if err := l.removeFile(name, "left over from a deletion"); err != nil {
				return err
			}
		case strings.HasSuffix(suffix, CleanedSuffix):
			minCleaned = min(minCleaned, base)
			if err := l.removeFile(name, "output of an interrupted clean"); err != nil {
				return err
			}
		case strings.HasSuffix(suffix, SwapSuffix):
			swaps = append(swaps, name)
		}
	}
	var valid []string
	for _, name := range swaps {
		if base, _, _ := ParseSegmentFileName(name); base >= minCleaned {
			if err := l.removeFile(name, "swap file of an incomplete clean"); err != nil {
				return err
			}
			continue
		}
		valid = append(valid, name)
	}
	return l.completeSwaps(valid)
}

func (l *Log) removeFile(name, reason string) error {
	p := l.fsys.PathJoin(l.dir, name)
	var size int64
	if fi, err := l.fsys.Stat(p); err == nil {
		size = fi.Size()
	}
	if err := l.fsys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	l.report.FilesRemoved = append(l.report.FilesRemoved, name)
	l.report.Removed = append(l.report.Removed, Removal{File: name, Bytes: size, Reason: reason})
	l.dirDirty = true
	return nil
}

// completeSwaps finishes a clean interrupted after its output became .swap files:
// every segment file whose offset lies in [smallest swap base, largest swap end) is
// deleted, then the .swap files lose their suffix.
func (l *Log) completeSwaps(swaps []string) error {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, name := range swaps {
		base, suffix, _ := ParseSegmentFileName(name)
		if suffix != LogSuffix+SwapSuffix {
			continue
		}
		s, _, err := loadSegment(l.fsys, l.dir, base, SwapSuffix, l.segmentParams(0))
		if err != nil {
			return err
		}
		end, err := s.readNextOffset(l.lookupBuf())
		s.closeHandles()
		if err != nil {
			return err
		}
		lo, hi = min(lo, base), max(hi, end)
		l.report.SwapsCompleted = append(l.report.SwapsCompleted, base)
	}
	names, err := l.fsys.List(l.dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		base, suffix, ok := ParseSegmentFileName(name)
		if ok && !strings.HasSuffix(suffix, SwapSuffix) && base >= lo && base < hi {
			if err := l.removeFile(name, "replaced by cleaner output"); err != nil {
				return err
			}
		}
	}
	for _, name := range swaps {
		to := strings.TrimSuffix(name, SwapSuffix)
		if err := l.fsys.Rename(l.fsys.PathJoin(l.dir, name), l.fsys.PathJoin(l.dir, to)); err != nil {
			return err
		}
		l.dirDirty = true
	}
	return nil
}

// loadSegments opens every .log file of the directory, and deletes index files whose
// .log is missing. It returns the segments whose indexes must be rebuilt.
func (l *Log) loadSegments(nowMs int64) (map[*Segment]bool, error) {
	names, err := l.fsys.List(l.dir)
	if err != nil {
		return nil, err
	}
	logs := map[int64]bool{}
	for _, name := range names {
		if base, suffix, ok := ParseSegmentFileName(name); ok && suffix == LogSuffix {
			logs[base] = true
		}
	}
	for _, name := range names {
		base, suffix, ok := ParseSegmentFileName(name)
		if ok && (suffix == IndexSuffix || suffix == TimeIndexSuffix || suffix == TxnIndexSuffix) && !logs[base] {
			if err := l.removeFile(name, "index without a .log"); err != nil {
				return nil, err
			}
		}
	}
	bases := make([]int64, 0, len(logs))
	for b := range logs {
		bases = append(bases, b)
	}
	sort.Slice(bases, func(i, j int) bool { return bases[i] < bases[j] })
	need := map[*Segment]bool{}
	for _, base := range bases {
		s, rebuild, err := loadSegment(l.fsys, l.dir, base, "", l.segmentParams(nowMs))
		if err != nil {
			return nil, err
		}
		l.segments = append(l.segments, s)
		if rebuild || s.indexBeyondLog() {
			need[s] = true
			l.dirDirty = true // a missing index file was just created
		}
	}
	return need, nil
}

// verify checks, reading and changing nothing else, what a segment that is not
// recovered is trusted for, and returns the offset after its last batch. Every
// offset-index entry (O, P) but the last must point at a v2 batch header inside the
// .log, at a base offset in [segment base, O], the batch ending at or before the next
// entry's position; from the last entry's position (or 0) to the end of the file every
// batch must be whole, pass its CRC, and have increasing offsets that fit the segment,
// the first starting at or below the entry's offset; the last entry's offset and the
// time index's must lie below the end. This is what reads, the LEO and appends rely on:
// a wrong entry sends a fetch into the middle of a batch, a torn or corrupt tail would
// be appended after. It reads one header per index entry and the batches after the
// last one, about index.interval.bytes plus a batch.
//
// Kafka 3.7's LogSegment.sanityCheck only checks that the offset index file exists
// (and the transaction index), relying on recovery for the segments above the
// recovery point and on the clean shutdown marker for the others; it trusts a copied
// index or a torn tail under a clean shutdown marker.
func (s *Segment) verify(buf []byte) (int64, error) {
	name := s.log.Name()
	n := s.oidx.Entries()
	var hb [BatchHeaderLen]byte
	for k := 0; k+1 < n; k++ {
		e, nextPos := s.oidx.at(k), s.oidx.at(k+1).Position
		if e.Position+BatchHeaderLen > s.size {
			return 0, fmt.Errorf("%s: offset index entry %d (%d, %d) points past the last batch header (size %d)", name, k, e.Offset, e.Position, s.size)
		}
		if err := vfs.ReadAtFull(s.log, hb[:], e.Position); err != nil {
			return 0, fmt.Errorf("kafkalog: read %s at %d: %w", name, e.Position, err)
		}
		h, err := ReadBatchHeader(hb[:])
		switch {
		case err != nil:
			return 0, fmt.Errorf("%s: offset index entry %d (%d, %d) points at no batch header: %v", name, k, e.Offset, e.Position, err)
		case h.BaseOffset < s.baseOffset || h.BaseOffset > e.Offset || e.Position+h.Size() > nextPos:
			return 0, fmt.Errorf("%s: offset index entry %d (%d, %d) points at a batch of offsets %d..%d, %d bytes, before entry %d at position %d",
				name, k, e.Offset, e.Position, h.BaseOffset, h.LastOffset(), h.Size(), k+1, nextPos)
		}
	}
	last := OffsetPosition{Offset: -1}
	start := int64(0)
	if n > 0 {
		last = s.oidx.at(n - 1)
		start = last.Position
	}
	sc := newBatchScanner(s.log, name, start, s.size, buf, true)
	next, prevLast := s.baseOffset, s.baseOffset-1
	for first := true; sc.Next(); first = false {
		h := &sc.hdr
		if first && h.BaseOffset > last.Offset && n > 0 {
			return 0, fmt.Errorf("%s: the last offset index entry (%d, %d) points at a batch starting at offset %d", name, last.Offset, last.Position, h.BaseOffset)
		}
		if err := s.checkRecoveredOffsets(h, prevLast); err != nil {
			return 0, fmt.Errorf("%s: batch at position %d: %v", name, sc.pos, err)
		}
		prevLast, next = h.LastOffset(), h.NextOffset()
	}
	switch {
	case sc.err != nil:
		return 0, sc.err
	case sc.torn:
		return 0, fmt.Errorf("%s: torn batch at position %d, %d bytes before the end", name, sc.pos, s.size-sc.pos)
	case n > 0 && last.Offset >= next:
		return 0, fmt.Errorf("%s: the last offset index entry (%d, %d) lies beyond the last offset %d", name, last.Offset, last.Position, next-1)
	}
	if s.tidx.Entries() > 0 {
		if te := s.tidx.LastEntry(); te.Offset < s.baseOffset || te.Offset >= next {
			return 0, fmt.Errorf("%s: the last time index entry %v lies outside the segment's offsets [%d, %d)", name, te, s.baseOffset, next)
		}
	}
	return next, nil
}

// indexBeyondLog reports whether the last offset-index entry points at or past the
// end of the .log: a stale index left by a truncation that a crash did not let us trim.
func (s *Segment) indexBeyondLog() bool {
	n := s.oidx.Entries()
	return n > 0 && s.oidx.Entry(n-1).Position >= s.size
}

// recoverSegments walks the segments in order and settles each one's end offset: it
// recovers the segments from the one holding the recovery point to the end after an
// unclean shutdown, and any segment whose indexes are missing or fail their checks
// (LogLoader.recoverLog, LogLoader.loadSegmentFiles); every other segment is verified
// (Segment.verify) and recovered if it fails. Then it settles what the segments say
// about each other: an empty segment whose base offset contradicts the data before
// it holds nothing and is removed; a segment with data whose base offset lies inside
// the one before is ErrInconsistentLog. After a segment is cut, the later segments
// are deleted if they are empty (Kafka deletes them in any case); if one holds data
// the open fails with ErrInconsistentLog before anything is cut.
func (l *Log) recoverSegments(o openOptions, need map[*Segment]bool, nowMs int64) error {
	from := len(l.segments)
	if !o.cleanShutdown {
		from = max(0, l.floorSegment(o.recoveryPoint))
	}
	var buf *[]byte // taken from the pool by the first segment that needs it
	defer func() {
		if buf != nil {
			recoveryBuffers.Put(buf)
		}
	}()
	prevEnd := int64(-1) // the offset after the data of the segments before i
	prevData := 0        // the segment that holds that data's end
	for i := 0; i < len(l.segments); i++ {
		s := l.segments[i]
		sc := recoveryScan{validBytes: s.size}
		recover := i >= from || need[s]
		if !recover {
			var problem error
			if sc.next, problem = s.verify(l.lookupBuf()); problem != nil {
				recover = true
				l.report.Inconsistencies = append(l.report.Inconsistencies, problem.Error())
			}
		}
		if recover {
			if buf == nil {
				buf = recoveryBuffers.Get().(*[]byte)
			}
			if need[s] || i < from {
				l.report.IndexesRebuilt = append(l.report.IndexesRebuilt, s.baseOffset)
			}
			l.report.SegmentsRecovered++
			var err error
			if sc, err = s.rebuild(*buf, l.cfg.SegmentIndexBytes, l.epochs); err != nil {
				return err
			}
			if l.parts.Recover != nil {
				if sc, err = l.recoverWithPart(s, sc); err != nil {
					return err
				}
			}
		}
		switch {
		case i > 0 && s.baseOffset < prevEnd && sc.validBytes > 0:
			return l.overlapError(prevData, s)
		case i > 0 && sc.validBytes == 0 && s.baseOffset < prevEnd:
			if err := l.dropEmptySegment(i, prevEnd); err != nil {
				return err
			}
			i--
			continue
		}
		switch {
		case sc.validBytes < s.size:
			if err := l.cutSegment(i, sc, nowMs); err != nil {
				return err
			}
		case recover:
			if _, err := s.finishRecovery(sc.validBytes, nil); err != nil {
				return err
			}
		}
		if s.size > 0 || i == 0 {
			prevEnd, prevData = sc.next, i
		}
	}
	for n := len(l.segments); n > 1 && l.segments[n-1].size == 0 && l.segments[n-1].baseOffset > prevEnd; n = len(l.segments) {
		if err := l.dropEmptySegment(n-1, prevEnd); err != nil {
			return err
		}
	}
	return nil
}

// dropEmptySegment removes segment i, which holds no valid batch and whose base offset
// contradicts the end of the data before it (prevEnd): below it, it would hide that data
// behind a new active segment (or, recovered, cut it); above it, as the last segment,
// it would move the LEO past offsets that were never written. Kafka loads such a file
// as a segment. Its bytes, if any, are not valid batches.
func (l *Log) dropEmptySegment(i int, prevEnd int64) error {
	s := l.segments[i]
	reason := fmt.Sprintf("segment %d without a valid batch inside the data of the segments before it, which end at offset %d", s.baseOffset, prevEnd)
	if s.baseOffset > prevEnd {
		reason = fmt.Sprintf("last segment %d without a valid batch beyond the end of the log at offset %d", s.baseOffset, prevEnd)
	}
	l.report.Inconsistencies = append(l.report.Inconsistencies, s.log.Name()+": "+reason)
	s.closeHandles()
	l.removeSegments([]*Segment{s})
	for _, suffix := range []string{TxnIndexSuffix, TimeIndexSuffix, IndexSuffix, LogSuffix} {
		name := SegmentFileName(s.baseOffset, suffix)
		if _, err := l.fsys.Stat(l.fsys.PathJoin(l.dir, name)); err != nil {
			continue
		}
		if err := l.removeFile(name, reason); err != nil {
			return err
		}
	}
	return nil
}

// overlapError is the ErrInconsistentLog of segment next starting inside segment i:
// it names segment i's .log and the position of its batch that holds next's base.
func (l *Log) overlapError(i int, next *Segment) error {
	s := l.segments[i]
	at, _, err := s.translateOffset(next.baseOffset, l.lookupBuf())
	if err != nil {
		return err
	}
	return &FileError{Path: s.log.Name(), Position: at.pos, Err: fmt.Errorf("%w: the batch there holds offsets %d..%d, but segment %s starts at %d; open does not cut batches that pass their checks",
		ErrInconsistentLog, at.hdr.BaseOffset, at.hdr.LastOffset(), SegmentFileName(next.baseOffset, LogSuffix), next.baseOffset)}
}

// recoveryBuffers holds the RecoveryBufferSize buffers that recovery and the cleaner
// read segments through, so that opening a log many times (the simulated cluster's
// explorer does) does not allocate 1 MiB each time; a log that needs no recovery
// takes none.
var recoveryBuffers = sync.Pool{New: func() any {
	b := make([]byte, RecoveryBufferSize)
	return &b
}}

// cutSegment cuts segment i, whose rebuild found sc, at its first invalid byte and
// deletes the later segments, which must be empty: if one holds data the cut would
// lose valid batches, and the open fails with ErrInconsistentLog before cutting.
// (LogLoader.recoverLog deletes the later segments whatever they hold.)
func (l *Log) cutSegment(i int, sc recoveryScan, nowMs int64) error {
	s := l.segments[i]
	later := append([]*Segment(nil), l.segments[i+1:]...)
	for _, d := range later {
		if d.size > 0 && !sc.byPart {
			return &FileError{Path: s.log.Name(), Position: sc.validBytes, Err: fmt.Errorf("%w: %s, but segment %s after it holds %d bytes; open does not cut batches that pass their checks",
				ErrInconsistentLog, sc.reason(), SegmentFileName(d.baseOffset, LogSuffix), d.size)}
		}
	}
	res, err := s.finishRecovery(sc.validBytes, sc.bad)
	if err != nil {
		return err
	}
	l.report.Truncations = append(l.report.Truncations, res)
	l.report.Removed = append(l.report.Removed, Removal{File: SegmentFileName(s.baseOffset, LogSuffix), Position: res.Position, Bytes: res.Bytes, Reason: res.Reason})
	for _, d := range later {
		l.report.SegmentsDeleted = append(l.report.SegmentsDeleted, d.baseOffset)
		l.report.Removed = append(l.report.Removed, Removal{File: SegmentFileName(d.baseOffset, LogSuffix), Bytes: d.size, Reason: fmt.Sprintf("after segment %d, which recovery cut", s.baseOffset)})
	}
	l.removeSegments(later)
	return l.deleteSegmentFiles(later, nowMs)
}

// recoveryScan is what rebuilding a segment found: the bytes of whole valid batches
// from its start, the offset after the last of them, and what stopped the scan (nil:
// the end of the file or a torn tail).
type recoveryScan struct {
	validBytes int64
	next       int64
	bad        error
	torn       bool
	// byPart says Parts.Recover chose the cut: like LogLoader.recoverLog, the
	// segments after it are deleted whatever they hold.
	byPart bool
}

func (r recoveryScan) reason() string {
	if r.bad != nil {
		return r.bad.Error()
	}
	return "torn tail"
}

// rebuild is the scan of LogSegment.recover: it resets both indexes, walks every batch
// from the start of the .log through one reused buffer checking length, magic, CRC and
// that offsets increase and fit the segment, and rebuilds the index entries
// (validBytes − lastIndexEntry > index.interval.bytes gives (batch last offset, batch
// start)), the largest timestamp and the epoch cache (first batch of each newer epoch).
// Records are never decoded. It cuts nothing: finishRecovery does, once the log has
// decided the cut is allowed. A legacy (magic 0/1) message whose CRC holds is an
// error, not a cut; bytes with magic 0 or 1 whose legacy CRC fails (a v2 batch whose
// magic byte was damaged) are cut as any corrupt batch, as Kafka 3.7's
// LogSegment.recover catches the CorruptRecordException of LegacyRecord.ensureValid
// and truncates there. A magic above 2 is cut too (Kafka would read it as a v2
// batch, whose CRC does not cover the magic byte; no reader can use it).
func (s *Segment) rebuild(buf []byte, maxIndexSize int64, epochs *LeaderEpochCache) (recoveryScan, error) {
	if err := s.resetIndexes(int(maxIndexSize)); err != nil {
		return recoveryScan{}, err
	}
	s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = NoTimestamp, s.baseOffset
	sc := newBatchScanner(s.log, s.log.Name(), 0, s.size, buf, true)
	res := recoveryScan{next: s.baseOffset}
	var lastIndexEntry int64
	prevLast := s.baseOffset - 1
	for sc.Next() {
		h := &sc.hdr
		if res.bad = s.checkRecoveredOffsets(h, prevLast); res.bad != nil {
			break
		}
		if h.MaxTimestamp > s.maxTimestampSoFar {
			s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = h.MaxTimestamp, h.LastOffset()
		}
		if res.validBytes-lastIndexEntry > s.indexIntervalBytes {
			if err := s.addIndexEntry(h.LastOffset(), res.validBytes); err != nil {
				return recoveryScan{}, err
			}
			lastIndexEntry = res.validBytes
		}
		res.validBytes += sc.size
		res.next = h.NextOffset()
		prevLast = h.LastOffset()
		if err := assignRecoveredEpoch(epochs, h); err != nil {
			return recoveryScan{}, err
		}
	}
	if res.bad == nil {
		res.bad = sc.err
	}
	res.torn = sc.torn
	if res.bad != nil && errors.Is(res.bad, ErrLegacyFormat) {
		return recoveryScan{}, fmt.Errorf("kafkalog: recover segment %d: %w", s.baseOffset, res.bad)
	}
	return res, nil
}

// checkRecoveredOffsets rejects a batch whose offsets do not increase or do not fit
// the segment (LogSegment.ensureOffsetInRange, plus our increasing-offsets check).
func (s *Segment) checkRecoveredOffsets(h *BatchHeader, prevLast int64) error {
	switch {
	case h.LastOffsetDelta < 0:
		return fmt.Errorf("%w: batch at offset %d has lastOffsetDelta %d", ErrCorruptBatch, h.BaseOffset, h.LastOffsetDelta)
	case h.BaseOffset <= prevLast:
		return fmt.Errorf("%w: batch at offset %d follows offset %d", ErrCorruptBatch, h.BaseOffset, prevLast)
	case !s.canHold(h.BaseOffset) || !s.canHold(h.LastOffset()):
		return fmt.Errorf("%w: offsets %d..%d in segment %d", ErrOffsetOverflow, h.BaseOffset, h.LastOffset(), s.baseOffset)
	}
	return nil
}

func assignRecoveredEpoch(epochs *LeaderEpochCache, h *BatchHeader) error {
	if h.PartitionLeaderEpoch < 0 {
		return nil
	}
	if latest, ok := epochs.LatestEpoch(); ok && h.PartitionLeaderEpoch <= latest {
		return nil
	}
	return epochs.Assign(h.PartitionLeaderEpoch, h.BaseOffset)
}

// finishRecovery cuts the .log at validBytes (and, unlike Kafka, fsyncs the cut),
// writes back and trims the rebuilt indexes and fsyncs them.
func (s *Segment) finishRecovery(validBytes int64, bad error) (Truncation, error) {
	t := Truncation{Segment: s.baseOffset, Position: validBytes, Bytes: s.size - validBytes, Reason: "torn tail"}
	if bad != nil {
		t.Reason = bad.Error()
	}
	if t.Bytes > 0 {
		// Kafka leaves the cut in the page cache (FileRecords.truncateTo does not
		// fsync). We fsync it on purpose: otherwise a second power cut could undo the
		// cut and the overwrites that followed it, and splice the old torn bytes with
		// new ones into a batch that was never written whole.
		if err := s.log.Truncate(validBytes); err != nil {
			return Truncation{}, fmt.Errorf("kafkalog: truncate %s to %d: %w", s.log.Name(), validBytes, err)
		}
		if err := s.log.Sync(); err != nil {
			return Truncation{}, fmt.Errorf("kafkalog: truncate %s to %d: %w", s.log.Name(), validBytes, err)
		}
		s.size = validBytes
	}
	s.firstBatchTimestampKnown = false
	if err := s.oidx.TrimToValidSize(); err != nil {
		return Truncation{}, err
	}
	if err := s.appendFinalTimeEntry(); err != nil {
		return Truncation{}, err
	}
	if err := s.tidx.TrimToValidSize(); err != nil {
		return Truncation{}, err
	}
	// The rebuilt indexes overwrite the old files in place; a power cut before they
	// are durable could splice old and new bytes into entries that look valid, in a
	// segment the recovery point no longer covers. Kafka does not sync here.
	if err := s.oidx.Sync(); err != nil {
		return Truncation{}, err
	}
	if err := s.tidx.Sync(); err != nil {
		return Truncation{}, err
	}
	return t, nil
}

// resetIndexes empties both indexes with room for maxIndexSize bytes of entries,
// and the transaction index, which the log rebuilds once the segments are loaded
// (LogSegment.recover resets all three).
func (s *Segment) resetIndexes(maxIndexSize int) error {
	if _, err := s.oidx.Resize(maxIndexSize); err != nil {
		return err
	}
	if _, err := s.tidx.Resize(maxIndexSize); err != nil {
		return err
	}
	if err := s.oidx.Reset(); err != nil {
		return err
	}
	if s.txn != nil {
		if err := s.txn.Reset(); err != nil {
			return err
		}
	}
	s.txnRebuild = true
	return s.tidx.Reset()
}

// finishLoad deletes everything if the log ends below the log start offset, makes sure
// an active segment exists, sets the LEO, the recovery point and the log start offset,
// grows the active segment's indexes back to segment.index.bytes and truncates the
// epoch cache to the log (LogLoader.load, UnifiedLog's constructor).
func (l *Log) finishLoad(o openOptions, nowMs int64) error {
	leo := l.logStartOffset
	if n := len(l.segments); n > 0 {
		var err error
		if leo, err = l.segments[n-1].readNextOffset(l.lookupBuf()); err != nil {
			return err
		}
	}
	if leo < l.logStartOffset && len(l.segments) > 0 {
		all := append([]*Segment(nil), l.segments...)
		for _, d := range all {
			l.report.SegmentsDeleted = append(l.report.SegmentsDeleted, d.baseOffset)
			l.report.Removed = append(l.report.Removed, Removal{File: SegmentFileName(d.baseOffset, LogSuffix), Bytes: d.size,
				Reason: fmt.Sprintf("the log ends at %d, below the log start offset %d", leo, l.logStartOffset)})
		}
		l.removeSegments(all)
		if err := l.deleteSegmentFiles(all, nowMs); err != nil {
			return err
		}
		leo = l.logStartOffset
	}
	if len(l.segments) == 0 {
		s, err := createSegment(l.fsys, l.dir, l.logStartOffset, "", l.segmentParams(nowMs))
		if err != nil {
			return err
		}
		l.segments = append(l.segments, s)
		l.dirDirty = true
		leo = l.logStartOffset
	}
	l.nextOffset = leo
	l.logStartOffset = max(l.logStartOffset, l.segments[0].baseOffset)
	if o.cleanShutdown && len(l.report.Truncations) == 0 {
		l.recoveryPoint = leo
	} else {
		l.recoveryPoint = min(o.recoveryPoint, leo)
	}
	if err := l.active().resizeIndexes(int(l.cfg.SegmentIndexBytes)); err != nil {
		return err
	}
	// Epochs that started beyond the log are dropped; when recovery cut the log, so are
	// those starting at the new LEO (they began in the cut part). An epoch starting
	// exactly at the LEO of an uncut log is kept: a leader assigns its epoch at the LEO
	// before appending (fixture donaldy myTopic-0 keeps "0 38" with LEO 38).
	before := len(l.epochs.Entries())
	end := leo + 1
	if len(l.report.Truncations) > 0 {
		end = leo
	}
	if err := l.epochs.TruncateFromEnd(end); err != nil {
		return err
	}
	if err := l.epochs.TruncateFromStart(l.logStartOffset); err != nil {
		return err
	}
	if err := l.dropContradictedEpochs(); err != nil {
		return err
	}
	l.report.EpochsTruncated = len(l.epochs.Entries()) < before
	return nil
}

// dropContradictedEpochs removes each epoch entry that the log contradicts:
// the first batch at or after its start offset is of an older epoch (a
// damaged base offset moved an older batch over offsets the entry says are
// its epoch's; neither the base offset nor the epoch is covered by the
// CRC). Kept, such an entry would make a leader answer that the older
// epoch ends before a batch of it, and a follower truncate there and fetch
// that batch again, round after round. Kafka 3.7 keeps it (LogLoader
// truncates the cache only from the log end offset). Each removal is listed
// in RecoveryReport.Inconsistencies.
func (l *Log) dropContradictedEpochs() error {
	entries := l.epochs.Entries()
	kept := entries[:0:0]
	for _, e := range entries {
		if e.StartOffset < l.nextOffset {
			if i := l.floorSegment(e.StartOffset); i >= 0 {
				at, ok, err := l.segments[i].translateOffset(e.StartOffset, l.lookupBuf())
				if err != nil {
					return err
				}
				if ok && at.hdr.PartitionLeaderEpoch >= 0 && at.hdr.PartitionLeaderEpoch < e.Epoch {
					l.report.Inconsistencies = append(l.report.Inconsistencies, fmt.Sprintf("%s: epoch %d starts at offset %d, but the first batch there (offsets %d..%d in %s) is of epoch %d: the entry is dropped",
						LeaderEpochCheckpointFile, e.Epoch, e.StartOffset, at.hdr.BaseOffset, at.hdr.LastOffset(), SegmentFileName(l.segments[i].baseOffset, LogSuffix), at.hdr.PartitionLeaderEpoch))
					continue
				}
			}
		}
		kept = append(kept, e)
	}
	if len(kept) == len(entries) {
		return nil
	}
	l.epochs.entries, l.epochs.shared = kept, 0
	return l.epochs.flush()
}
