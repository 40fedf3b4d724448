package kafkalog

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strings"
	"sync"
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
}

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
			if err := l.removeFile(name); err != nil {
				return err
			}
		case strings.HasSuffix(suffix, CleanedSuffix):
			minCleaned = min(minCleaned, base)
			if err := l.removeFile(name); err != nil {
				return err
			}
		case strings.HasSuffix(suffix, SwapSuffix):
			swaps = append(swaps, name)
		}
	}
	var valid []string
	for _, name := range swaps {
		if base, _, _ := ParseSegmentFileName(name); base >= minCleaned {
			if err := l.removeFile(name); err != nil {
				return err
			}
			continue
		}
		valid = append(valid, name)
	}
	return l.completeSwaps(valid)
}

func (l *Log) removeFile(name string) error {
	if err := l.fsys.Remove(l.fsys.PathJoin(l.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	l.report.FilesRemoved = append(l.report.FilesRemoved, name)
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
		end, err := s.readNextOffset(l.buf)
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
			if err := l.removeFile(name); err != nil {
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
			if err := l.removeFile(name); err != nil {
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

// indexBeyondLog reports whether the last offset-index entry points at or past the
// end of the .log: a stale index left by a truncation that a crash did not let us trim.
func (s *Segment) indexBeyondLog() bool {
	n := s.oidx.Entries()
	return n > 0 && s.oidx.Entry(n-1).Position >= s.size
}

// recoverSegments recovers, in order, the segments from the one holding the recovery
// point to the end after an unclean shutdown, and any segment in need; after the first
// segment that had to be cut, every later segment is deleted (LogLoader.recoverLog).
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
	for i := 0; i < len(l.segments); i++ {
		s := l.segments[i]
		if i < from && !need[s] {
			continue
		}
		if buf == nil {
			buf = recoveryBuffers.Get().(*[]byte)
		}
		if need[s] {
			l.report.IndexesRebuilt = append(l.report.IndexesRebuilt, s.baseOffset)
		}
		cut, err := l.recoverSegment(s, *buf, l.upperBoundOfFile(i))
		if err != nil {
			return err
		}
		if cut && i+1 < len(l.segments) {
			later := append([]*Segment(nil), l.segments[i+1:]...)
			for _, d := range later {
				l.report.SegmentsDeleted = append(l.report.SegmentsDeleted, d.baseOffset)
			}
			l.removeSegments(later)
			if err := l.deleteSegmentFiles(later, nowMs); err != nil {
				return err
			}
		}
	}
	return nil
}

// recoveryBuffers holds the RecoveryBufferSize buffers that recovery and the cleaner
// read segments through, so that opening a log many times (the simulated cluster's
// explorer does) does not allocate 1 MiB each time; a log that needs no recovery
// takes none.
var recoveryBuffers = sync.Pool{New: func() any {
	b := make([]byte, RecoveryBufferSize)
	return &b
}}

// upperBoundOfFile returns the base offset of the segment after segment i, or
// MaxInt64 for the last one: no batch of segment i may reach it.
func (l *Log) upperBoundOfFile(i int) int64 {
	if i+1 < len(l.segments) {
		return l.segments[i+1].baseOffset
	}
	return math.MaxInt64
}

// recoverSegment validates the segment's batches and rebuilds its indexes and the
// epoch cache entries it holds; it reports whether it cut anything.
func (l *Log) recoverSegment(s *Segment, buf []byte, limit int64) (bool, error) {
	l.report.SegmentsRecovered++
	res, err := s.recover(buf, l.cfg.SegmentIndexBytes, l.epochs, limit)
	if err != nil {
		return false, err
	}
	if res.Bytes == 0 {
		return false, nil
	}
	l.report.Truncations = append(l.report.Truncations, res)
	return true, nil
}

// recover is LogSegment.recover: it resets both indexes, walks every batch from the
// start of the .log through one reused buffer checking length, magic, CRC and that
// offsets increase and fit the segment, rebuilds the index entries (validBytes −
// lastIndexEntry > index.interval.bytes gives (batch last offset, batch start)), the
// largest timestamp and the epoch cache (first batch of each newer epoch), then cuts
// the .log at the first byte that is not a whole valid batch. Records are never
// decoded. A batch reaching limit (the next segment's base offset) overlaps the next
// segment and counts as invalid too. A legacy (magic 0/1) batch is an error, not a cut.
func (s *Segment) recover(buf []byte, maxIndexSize int64, epochs *LeaderEpochCache, limit int64) (Truncation, error) {
	if err := s.resetIndexes(int(maxIndexSize)); err != nil {
		return Truncation{}, err
	}
	s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = NoTimestamp, s.baseOffset
	sc := newBatchScanner(s.log, s.log.Name(), 0, s.size, buf, true)
	var validBytes, lastIndexEntry int64
	prevLast := s.baseOffset - 1
	var bad error
	for sc.Next() {
		h := &sc.hdr
		if bad = s.checkRecoveredOffsets(h, prevLast, limit); bad != nil {
			break
		}
		if h.MaxTimestamp > s.maxTimestampSoFar {
			s.maxTimestampSoFar, s.offsetOfMaxTimestampSoFar = h.MaxTimestamp, h.LastOffset()
		}
		if validBytes-lastIndexEntry > s.indexIntervalBytes {
			if err := s.addIndexEntry(h.LastOffset(), validBytes); err != nil {
				return Truncation{}, err
			}
			lastIndexEntry = validBytes
		}
		validBytes += sc.size
		prevLast = h.LastOffset()
		if err := assignRecoveredEpoch(epochs, h); err != nil {
			return Truncation{}, err
		}
	}
	if bad == nil {
		bad = sc.err
	}
	if bad != nil && errors.Is(bad, ErrLegacyFormat) {
		return Truncation{}, fmt.Errorf("kafkalog: recover segment %d: %w", s.baseOffset, bad)
	}
	return s.finishRecovery(validBytes, bad)
}

// checkRecoveredOffsets rejects a batch whose offsets do not increase or do not fit
// the segment (LogSegment.ensureOffsetInRange, plus our increasing-offsets check).
func (s *Segment) checkRecoveredOffsets(h *BatchHeader, prevLast, limit int64) error {
	switch {
	case h.LastOffset() >= limit:
		return fmt.Errorf("%w: batch %d..%d overlaps the next segment at %d", ErrCorruptBatch, h.BaseOffset, h.LastOffset(), limit)
	case h.LastOffsetDelta < 0:
		return fmt.Errorf("%w: batch at offset %d has lastOffsetDelta %d", ErrCorruptBatch, h.BaseOffset, h.LastOffsetDelta)
	case h.BaseOffset <= prevLast:
		return fmt.Errorf("%w: batch at offset %d follows offset %d", ErrCorruptBatch, h.BaseOffset, prevLast)
	case !s.canHold(h.LastOffset()):
		return fmt.Errorf("%w: offset %d in segment %d", ErrOffsetOverflow, h.LastOffset(), s.baseOffset)
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

// resetIndexes empties both indexes with room for maxIndexSize bytes of entries.
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
		if leo, err = l.segments[n-1].readNextOffset(l.buf); err != nil {
			return err
		}
	}
	if leo < l.logStartOffset && len(l.segments) > 0 {
		all := append([]*Segment(nil), l.segments...)
		for _, d := range all {
			l.report.SegmentsDeleted = append(l.report.SegmentsDeleted, d.baseOffset)
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
	l.report.EpochsTruncated = len(l.epochs.Entries()) < before
	return nil
}
