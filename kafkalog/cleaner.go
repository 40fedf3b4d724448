package kafkalog

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
)

// Compaction (the log cleaner), after Kafka's LogCleaner, LogCleanerManager and
// MemoryRecords.filterTo at trunk of October 2024 (Kafka 3.x on the way to 4.0; the
// delete-horizon flag is KIP-534, Kafka 3.1+; keeping the last batch of a cleaning
// round is KAFKA-15543, Kafka 3.7+).
//
// The offset map is a Go map keyed by the record key's bytes (as a string) holding the
// latest offset of each key; Kafka's SkimpyOffsetMap keys an open-addressing table by
// the key's MD5 and can, in theory, confuse two keys whose hashes collide. Its capacity
// is CleanerOptions.MaxMapEntries, Kafka's dedupe buffer size / 24 bytes × 0.9.
//
// Damaged bytes. Kafka's cleaner checks no CRC (Kafka 3.7 and trunk of October 2024:
// LogCleaner.buildOffsetMapForSegment and MemoryRecords.filterTo iterate the records
// without DefaultRecordBatch.ensureValid), and neither does this one: a batch whose
// CRC no longer matches but whose records still parse is cleaned as any other, copied
// as it is (its CRC still wrong, so a consumer still refuses it) when every record
// stays, or rebuilt with a CRC computed anew when some go (the damage then reads as
// valid data). Bytes that do not parse (a magic byte, a length, a record) fail the
// round with ErrUncleanable, and so does a batch whose offsets do not fit the
// segment it is copied to; the segments it did not swap in are left as they were.

// ErrNotCompacted means Clean was asked to clean a log whose cleanup.policy has no
// "compact".
var ErrNotCompacted = errors.New("kafkalog: cleanup.policy does not include compact")

// ErrUncleanable means a cleaning round (Clean, CleanableSection) failed on what the
// log holds, not on the disk: a batch that does not parse, offsets that do not fit a
// cleaned segment. The log is left as it was, bar the groups of segments the round
// had already swapped in ([CleanResult].Groups), and stays usable: reads, appends
// and retention go on. Kafka's cleaner thread catches such a failure
// (LogCleaningException) and marks the partition uncleanable
// (LogCleanerManager.markPartitionUncleanable); a failure of the file system is not
// wrapped in it (Kafka takes the log dir offline for an IOException).
var ErrUncleanable = errors.New("kafkalog: the cleaner cannot clean this log")

// uncleanable wraps err in ErrUncleanable unless it is a failure of the file system
// (a *fs.PathError: no space left, a file that cannot be created).
func uncleanable(err error) error {
	var pe *fs.PathError
	if err == nil || errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUncleanable, err)
}

// decodeTrusting decodes the batch whatever its CRC says, as Kafka's cleaner reads
// batches (see "Damaged bytes" above).
func decodeTrusting(raw []byte) (RecordBatch, error) {
	d := Decoder{skipCRC: true}
	var b RecordBatch
	_, err := d.Decode(raw, &b)
	return b, err
}

// CleanerOptions are the broker-level cleaner settings (log.cleaner.*).
type CleanerOptions struct {
	// MaxMapEntries is how many keys one cleaning round may hold in its offset map; 0
	// means Kafka's default: 128 MiB / 24 bytes per slot × 0.9 load factor.
	MaxMapEntries int
}

func (o CleanerOptions) maxEntries() int {
	if o.MaxMapEntries > 0 {
		return o.MaxMapEntries
	}
	return (128 << 20) / 24 * 9 / 10
}

// CleanResult describes one cleaning round.
type CleanResult struct {
	// FirstDirtyOffset is where the dirty section began.
	FirstDirtyOffset int64
	// EndOffset is the offset the round cleaned up to (exclusive): the next first
	// dirty offset, to store in cleaner-offset-checkpoint.
	EndOffset int64
	// BytesRead and BytesWritten are the sizes of the segments before and after.
	BytesRead, BytesWritten int64
	// RecordsRead and RecordsRetained count records.
	RecordsRead, RecordsRetained int
	// Groups are the base offsets of the cleaned segments that replaced the old ones.
	Groups []int64
}

// CleanableSection is what LogCleanerManager computes to pick the filthiest log.
type CleanableSection struct {
	// FirstDirtyOffset is the checkpointed cleaner offset, reset to the log start
	// offset if it is outside the log.
	FirstDirtyOffset int64
	// FirstUncleanableOffset is min(last stable offset, active segment base, first
	// segment younger than min.compaction.lag.ms).
	FirstUncleanableOffset int64
	// CleanBytes and CleanableBytes are the sizes of whole segments below the dirty
	// offset and from it to the first uncleanable offset.
	CleanBytes, CleanableBytes int64
	// Ratio is CleanableBytes / (CleanBytes + CleanableBytes).
	Ratio float64
	// ForcedByMaxLag is whether max.compaction.lag.ms makes cleaning due whatever the ratio.
	ForcedByMaxLag bool
}

// NeedsCleaning reports whether the log is eligible: ratio above
// min.cleanable.dirty.ratio (strictly) or forced by max.compaction.lag.ms.
func (c CleanableSection) NeedsCleaning(cfg Config) bool {
	return c.CleanableBytes > 0 && (c.Ratio > cfg.MinCleanableDirtyRatio || c.ForcedByMaxLag)
}

// CleanableSection computes the clean and dirty sections given the checkpointed first
// dirty offset and the partition's high watermark (LogCleanerManager.cleanableOffsets
// and LogToClean; the last stable offset is min(first undecided transaction, high
// watermark)).
func (l *Log) CleanableSection(cleanerOffset, highWatermark, nowMs int64) (CleanableSection, error) {
	if err := l.usable(); err != nil {
		return CleanableSection{}, err
	}
	txns, err := l.scanTransactions()
	if err != nil {
		return CleanableSection{}, uncleanable(err)
	}
	return l.cleanableSection(cleanerOffset, nowMs, min(txns.lastStable, highWatermark)), nil
}

func (l *Log) cleanableSection(cleanerOffset, nowMs, lastStable int64) CleanableSection {
	c := CleanableSection{FirstDirtyOffset: cleanerOffset}
	if cleanerOffset < l.logStartOffset || cleanerOffset > l.nextOffset {
		c.FirstDirtyOffset = l.logStartOffset
	}
	c.FirstUncleanableOffset = min(lastStable, l.active().baseOffset)
	for i, s := range l.segments {
		if l.upperBound(i) <= c.FirstDirtyOffset {
			continue
		}
		if l.cfg.MinCompactionLagMs > 0 && s.largestTimestamp() > nowMs-l.cfg.MinCompactionLagMs {
			c.FirstUncleanableOffset = min(c.FirstUncleanableOffset, s.baseOffset)
		}
		if s.baseOffset < c.FirstUncleanableOffset && l.cfg.MaxCompactionLagMs < math.MaxInt64 {
			if first := s.firstTimestamp(l.lookupBuf()); first >= 0 && nowMs-first > l.cfg.MaxCompactionLagMs {
				c.ForcedByMaxLag = true
			}
		}
	}
	c.FirstUncleanableOffset = max(c.FirstUncleanableOffset, c.FirstDirtyOffset)
	for i, s := range l.segments {
		switch {
		case l.upperBound(i) <= c.FirstDirtyOffset:
			c.CleanBytes += s.size
		case s.baseOffset < c.FirstUncleanableOffset:
			c.CleanableBytes += s.size
		}
	}
	if total := c.CleanBytes + c.CleanableBytes; total > 0 {
		c.Ratio = float64(c.CleanableBytes) / float64(total)
	}
	return c
}

// Clean runs one cleaning round (LogCleaner.doClean): it builds the map of the latest
// offset of every key in the dirty section [first dirty, first uncleanable) (skipping
// aborted and control batches, stopping when the map is full), then rewrites every
// segment from the start of the log up to the end of that map, grouped into segments no
// larger than segment.bytes, keeping a record iff it is past the map, or it is the
// latest for its key and either has a value or is a tombstone whose delete horizon has
// not passed. Records of aborted transactions go; transaction markers stay until their
// transaction's data is gone and their own delete horizon has passed. Offsets are kept,
// so gaps appear. Each group is written as .cleaned, renamed to .swap, then swapped in
// for the old segments (which become .deleted). The active segment is never cleaned,
// nor anything at or above the high watermark or an undecided transaction.
func (l *Log) Clean(cleanerOffset, highWatermark, nowMs int64, opts CleanerOptions) (CleanResult, error) {
	if err := l.usable(); err != nil {
		return CleanResult{}, err
	}
	if !l.cfg.Compact() {
		return CleanResult{}, fmt.Errorf("%w: %s", ErrNotCompacted, l.dir)
	}
	txns, err := l.scanTransactions()
	if err != nil {
		return CleanResult{}, uncleanable(err)
	}
	sec := l.cleanableSection(cleanerOffset, nowMs, min(txns.lastStable, highWatermark))
	res := CleanResult{FirstDirtyOffset: sec.FirstDirtyOffset, EndOffset: sec.FirstDirtyOffset}
	if sec.FirstUncleanableOffset <= sec.FirstDirtyOffset {
		return res, nil
	}
	m, err := l.buildOffsetMap(sec.FirstDirtyOffset, sec.FirstUncleanableOffset, opts.maxEntries(), txns)
	if err != nil {
		return res, uncleanable(err)
	}
	if m.latestOffset < sec.FirstDirtyOffset {
		return res, nil
	}
	res.EndOffset = m.latestOffset + 1
	for _, group := range l.groupSegments(res.EndOffset) {
		cleaned, err := l.cleanGroup(group, m, txns, res.EndOffset, nowMs, &res)
		if err != nil {
			return res, uncleanable(err)
		}
		if err := l.swapIn(cleaned, group, nowMs); err != nil {
			return res, l.fail(err)
		}
		res.Groups = append(res.Groups, cleaned.baseOffset)
	}
	return res, nil
}

// offsetMap is the cleaner's map of latest offset per key.
type offsetMap struct {
	offsets      map[string]int64
	max          int
	latestOffset int64
}

func (m *offsetMap) get(key []byte) int64 {
	if o, ok := m.offsets[string(key)]; ok {
		return o
	}
	return -1
}

// buildOffsetMap fills the map from [start, end) (LogCleaner.buildOffsetMap).
func (l *Log) buildOffsetMap(start, end int64, maxEntries int, txns *txnScan) (*offsetMap, error) {
	m := &offsetMap{offsets: map[string]int64{}, max: maxEntries, latestOffset: start - 1}
	aborted := txns.tracker(nil)
	err := l.eachCleanerBatch(start, end, func(_ *Segment, h *BatchHeader, raw []byte) (bool, error) {
		if h.BaseOffset >= end {
			return false, nil
		}
		if !h.Attributes.IsControl() && !aborted.onData(h) {
			b, err := decodeTrusting(raw)
			if err != nil {
				return false, err
			}
			for i := range b.Records {
				r := &b.Records[i]
				if o := b.Offset(r); r.Key != nil && o >= start {
					if len(m.offsets) >= m.max {
						if _, ok := m.offsets[string(r.Key)]; !ok {
							return false, nil // full: this round ends before this batch
						}
					}
					m.offsets[string(r.Key)] = o
				}
			}
		} else if h.Attributes.IsControl() {
			aborted.onControl(h, raw)
		}
		if h.LastOffset() >= start {
			m.latestOffset = h.LastOffset()
		}
		return true, nil
	})
	return m, err
}

// eachBatch calls fn with every batch (header and raw bytes) of the segments that hold
// offsets in [from, to), in order, until fn returns false. A segment ends at its last
// whole batch (see Segment.eachBatch).
func (l *Log) eachBatch(from, to int64, fn func(s *Segment, h *BatchHeader, raw []byte) (bool, error)) error {
	return l.eachBatchOf(from, to, false, fn)
}

// eachCleanerBatch is eachBatch as the cleaner reads: bytes at the end of a segment
// that are no whole batch fail it (see Segment.eachBatch).
func (l *Log) eachCleanerBatch(from, to int64, fn func(s *Segment, h *BatchHeader, raw []byte) (bool, error)) error {
	return l.eachBatchOf(from, to, true, fn)
}

func (l *Log) eachBatchOf(from, to int64, strict bool, fn func(s *Segment, h *BatchHeader, raw []byte) (bool, error)) error {
	bp := recoveryBuffers.Get().(*[]byte)
	defer recoveryBuffers.Put(bp)
	buf := *bp
	for i, s := range l.segments {
		if l.upperBound(i) <= from || s.baseOffset >= to {
			continue
		}
		more, err := s.eachBatch(buf, strict, func(h *BatchHeader, raw []byte) (bool, error) { return fn(s, h, raw) })
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// eachBatch calls fn with each batch of the segment and its bytes (read whole; a batch
// is at most max.message.bytes). Bytes at the segment's end that are no whole batch (a
// length field that runs past the end, a few stray bytes) end it; with strict they
// fail it with ErrCorruptBatch instead, as Kafka 3.7's cleaner fails ("Log segment may
// be corrupt, batch size ... bytes left in segment": LogCleaner.growBuffersOrFail)
// rather than leave out of a cleaned segment the batches after them.
func (s *Segment) eachBatch(buf []byte, strict bool, fn func(h *BatchHeader, raw []byte) (bool, error)) (bool, error) {
	sc := newBatchScanner(s.log, s.log.Name(), 0, s.size, buf, false)
	var raw []byte
	for sc.Next() {
		if int64(cap(raw)) < sc.size {
			raw = make([]byte, sc.size)
		}
		raw = raw[:sc.size]
		if n, err := s.log.ReadAt(raw, sc.pos); n < len(raw) {
			return false, fmt.Errorf("kafkalog: read %s at %d: %w", s.log.Name(), sc.pos, err)
		}
		h := sc.hdr
		if more, err := fn(&h, raw); err != nil || !more {
			return false, err
		}
	}
	if strict && sc.err == nil && sc.torn {
		return false, fmt.Errorf("%s: %w: log segment may be corrupt: the bytes from position %d to its end (%d) are no whole batch",
			s.log.Name(), ErrCorruptBatch, sc.pos, s.size)
	}
	return true, sc.err
}

// groupSegments splits the segments below end into groups to clean into one segment
// each (LogCleaner.groupSegmentsBySize): a group's .log sizes sum to at most
// segment.bytes, its index entries fit segment.index.bytes, and its offsets span at
// most MaxInt32 from its base.
func (l *Log) groupSegments(end int64) [][]*Segment {
	var groups [][]*Segment
	var cur []*Segment
	var logSize, oidxSize, tidxSize int64
	for i, s := range l.segments {
		if s.baseOffset >= end || i == len(l.segments)-1 {
			break
		}
		fits := len(cur) > 0 &&
			logSize+s.size <= l.cfg.SegmentBytes &&
			oidxSize+int64(s.oidx.Entries())*OffsetIndexEntrySize <= l.cfg.SegmentIndexBytes &&
			tidxSize+int64(s.tidx.Entries())*TimeIndexEntrySize <= l.cfg.SegmentIndexBytes &&
			l.upperBound(i)-1-cur[0].baseOffset <= math.MaxInt32
		if len(cur) > 0 && !fits {
			groups = append(groups, cur)
			cur, logSize, oidxSize, tidxSize = nil, 0, 0, 0
		}
		cur = append(cur, s)
		logSize += s.size
		oidxSize += int64(s.oidx.Entries()) * OffsetIndexEntrySize
		tidxSize += int64(s.tidx.Entries()) * TimeIndexEntrySize
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	return groups
}

// txnScan is what a header scan of the whole log learns about transactions: the
// aborted ones, as the .txnindex files record them (Kafka's cleaner reads them
// there: collectAbortedTransactions), and the last stable offset (the first offset
// of a transaction not yet decided). The scan applies the batches to a producer
// state of its own, so that it finds them whatever the .txnindex files hold.
type txnScan struct {
	aborted    []AbortedTxn
	lastStable int64
	// lastBatch maps each producer id to the last offset of its last batch: the batch
	// the cleaner keeps (empty if need be) to preserve the producer's sequence and epoch.
	// Every producer counts as active (Kafka expires them after producer.id.expiration.ms).
	lastBatch map[int64]int64
}

// scanTransactions walks every batch header (and decodes only control batches).
func (l *Log) scanTransactions() (*txnScan, error) {
	var st producerState
	ts := &txnScan{lastBatch: map[int64]int64{}}
	err := l.eachCleanerBatch(l.segments[0].baseOffset, math.MaxInt64, func(_ *Segment, h *BatchHeader, raw []byte) (bool, error) {
		if h.ProducerID < 0 {
			return true, nil
		}
		ts.lastBatch[h.ProducerID] = h.LastOffset()
		var m *txnMarker
		if h.Attributes.IsControl() {
			mk, ok := readTxnMarker(raw)
			if !ok {
				return true, nil
			}
			m = &mk
		}
		if done := st.apply(h, m); done != nil {
			if done.Aborted {
				ts.aborted = append(ts.aborted, AbortedTxn{ProducerID: done.ProducerID, FirstOffset: done.FirstOffset,
					LastOffset: done.LastOffset, LastStableOffset: st.lastStable(*done)})
			}
			st.complete(*done)
		}
		return true, nil
	})
	ts.lastStable = l.nextOffset
	if first, ok := st.firstUnstable(math.MaxInt64); ok {
		ts.lastStable = min(ts.lastStable, first)
	}
	slices.SortStableFunc(ts.aborted, func(a, b AbortedTxn) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	return ts, err
}

// controlType returns the type of the first record of a control batch, or
// ControlUnknown if it has none or does not parse.
func controlType(raw []byte) ControlRecordType {
	b, err := decodeTrusting(raw)
	if err != nil || len(b.Records) == 0 {
		return ControlUnknown
	}
	k, err := ParseControlRecordKey(b.Records[0].Key)
	if err != nil {
		return ControlUnknown
	}
	return k.Type
}

// txnTracker is Kafka's CleanedTransactionMetadata: walking batches in offset order it
// says which data batches belong to aborted transactions and which markers may go,
// and writes the aborted transactions whose markers stay to the cleaned segment's
// transaction index (cleaned; nil while the offset map is built).
type txnTracker struct {
	pending   []AbortedTxn        // aborted transactions not yet reached, by first offset
	aborted   map[int64]*abortRun // producer → aborted transaction in progress
	committed map[int64]bool      // producers with committed-transaction data seen
	cleaned   *Segment
	err       error // the first failure to write cleaned's transaction index
}

type abortRun struct {
	txn     AbortedTxn
	sawData bool
}

func (ts *txnScan) tracker(cleaned *Segment) *txnTracker {
	return &txnTracker{pending: ts.aborted, aborted: map[int64]*abortRun{}, committed: map[int64]bool{}, cleaned: cleaned}
}

func (t *txnTracker) consumeUpTo(offset int64) {
	for len(t.pending) > 0 && t.pending[0].FirstOffset <= offset {
		if _, ok := t.aborted[t.pending[0].ProducerID]; !ok {
			t.aborted[t.pending[0].ProducerID] = &abortRun{txn: t.pending[0]}
		}
		t.pending = t.pending[1:]
	}
}

// onData reports whether the data batch belongs to an aborted transaction.
func (t *txnTracker) onData(h *BatchHeader) bool {
	t.consumeUpTo(h.LastOffset())
	if !h.Attributes.IsTransactional() {
		return false
	}
	if run, ok := t.aborted[h.ProducerID]; ok {
		run.sawData = true
		return true
	}
	t.committed[h.ProducerID] = true
	return false
}

// onControl reports whether the control batch may be discarded: an ABORT marker whose
// transaction left no data in this pass, a COMMIT marker whose transaction's data was
// not seen in this pass, or an empty (already cleaned) control batch. An ABORT marker
// that stays because its transaction's data was seen goes to the cleaned index.
func (t *txnTracker) onControl(h *BatchHeader, raw []byte) bool {
	t.consumeUpTo(h.LastOffset())
	if h.NumRecords == 0 {
		return true
	}
	switch controlType(raw) {
	case ControlAbort:
		run, ok := t.aborted[h.ProducerID]
		delete(t.aborted, h.ProducerID)
		if ok && run.sawData {
			if t.cleaned != nil && t.err == nil {
				t.err = t.cleaned.appendAbortedTxn(run.txn)
			}
			return false
		}
		return true
	case ControlCommit:
		seen := t.committed[h.ProducerID]
		delete(t.committed, h.ProducerID)
		return !seen
	}
	return false
}

// cleanGroup rewrites the segments of group into one new segment, to swap in
// (LogCleaner.cleanSegments). On an error the .cleaned files stay where they are, as
// Kafka 3.7 leaves them (it deletes them only when the round is aborted); the next
// open removes them.
func (l *Log) cleanGroup(group []*Segment, m *offsetMap, txns *txnScan, end, nowMs int64, res *CleanResult) (*Segment, error) {
	cleaned, err := createSegment(l.fsys, l.dir, group[0].baseOffset, CleanedSuffix, l.segmentParams(nowMs))
	if err != nil {
		return nil, err
	}
	l.dirDirty = true
	f := &batchFilter{m: m, txns: txns.tracker(cleaned), lastBatch: txns.lastBatch, end: end, nowMs: nowMs, deleteRetentionMs: l.cfg.DeleteRetentionMs, encode: l.encodeCleaned}
	bp := recoveryBuffers.Get().(*[]byte)
	defer recoveryBuffers.Put(bp)
	buf := *bp
	for _, s := range group {
		res.BytesRead += s.size
		_, err := s.eachBatch(buf, true, func(h *BatchHeader, raw []byte) (bool, error) {
			out, err := f.filter(h, raw)
			if err != nil || out == nil {
				return err == nil, err
			}
			oh, _ := ReadBatchHeader(out)
			return true, cleaned.append(oh.LastOffset(), oh.MaxTimestamp, oh.LastOffset(), out)
		})
		if err == nil {
			err = f.txns.err
		}
		if err != nil {
			cleaned.closeHandles()
			return nil, err
		}
	}
	// Kafka's cleanSegments closes the cleaned segment's indexes inside the round
	// (LogSegment.onBecomeInactiveSegment): a final time index entry that does not
	// fit (offsets a damaged batch made go backwards) fails the round as any other
	// cleaning failure, the log left as it was.
	if err := cleaned.onBecomeInactive(); err != nil {
		cleaned.closeHandles()
		return nil, err
	}
	res.RecordsRead += f.read
	res.RecordsRetained += f.retained
	res.BytesWritten += cleaned.size
	return cleaned, nil
}

// swapIn replaces old by cleaned crash-safely: the cleaned files are fsynced, renamed
// .cleaned → .swap and the directory synced; then the old segments become .deleted and
// the .swap files lose their suffix. A crash at any point leaves either the old
// segments or a .swap that Open completes.
func (l *Log) swapIn(cleaned *Segment, old []*Segment, nowMs int64) error {
	if err := cleaned.flush(); err != nil {
		return err
	}
	if err := cleaned.renameSuffix(SwapSuffix); err != nil {
		return err
	}
	l.dirDirty = true
	if err := l.syncDir(); err != nil {
		return err
	}
	at := 0
	for i, s := range l.segments {
		if s == old[0] {
			at = i
		}
	}
	l.removeSegments(old)
	l.segments = append(l.segments[:at], append([]*Segment{cleaned}, l.segments[at:]...)...)
	if err := l.deleteSegmentFiles(old, nowMs); err != nil {
		return err
	}
	if err := cleaned.renameSuffix(""); err != nil {
		return err
	}
	return l.syncDir()
}

// batchFilter decides, batch by batch, what the cleaner keeps (MemoryRecords.filterTo
// with LogCleaner's RecordFilter).
type batchFilter struct {
	m                 *offsetMap
	txns              *txnTracker
	lastBatch         map[int64]int64
	end, nowMs        int64
	deleteRetentionMs int64
	read, retained    int
	kept              []Record
	encode            func(*RecordBatch) []byte // the batches it rebuilds (Parts.EncodeBatch)
}

// filter returns the bytes to write for the batch (raw itself, a rebuilt batch, an
// empty header) or nil to drop it.
func (f *batchFilter) filter(h *BatchHeader, raw []byte) ([]byte, error) {
	control := h.Attributes.IsControl()
	var canDiscard bool
	if control {
		canDiscard = f.txns.onControl(h, raw)
	} else {
		canDiscard = f.txns.onData(h)
	}
	discardRecords := canDiscard
	if control {
		discardRecords = canDiscard && h.Attributes.HasDeleteHorizon() && h.BaseTimestamp <= f.nowMs
	}
	retainEmpty := (h.ProducerID >= 0 && f.lastBatch[h.ProducerID] == h.LastOffset()) || h.NextOffset() == f.end
	if discardRecords && !retainEmpty {
		f.read += int(h.NumRecords)
		return nil, nil
	}
	b, err := decodeTrusting(raw)
	if err != nil {
		return nil, err
	}
	f.kept = f.kept[:0]
	tombstones := false
	for i := range b.Records {
		r := &b.Records[i]
		f.read++
		if !discardRecords && (control || f.retainRecord(&b, r)) {
			f.kept = append(f.kept, *r)
			tombstones = tombstones || (!control && r.Value == nil)
		}
	}
	f.retained += len(f.kept)
	needHorizon := !h.Attributes.HasDeleteHorizon() && (tombstones || (control && canDiscard))
	switch {
	case len(f.kept) == len(b.Records) && len(f.kept) > 0 && !needHorizon:
		return raw, nil
	case len(f.kept) > 0:
		return f.rebuild(&b, needHorizon), nil
	case retainEmpty:
		return f.encode(emptyBatch(h)), nil
	}
	return nil, nil
}

// retainRecord is LogCleaner.shouldRetainRecord.
func (f *batchFilter) retainRecord(b *RecordBatch, r *Record) bool {
	o := b.Offset(r)
	if o > f.m.latestOffset {
		return true
	}
	if r.Key == nil {
		return false
	}
	latest := o >= f.m.get(r.Key)
	keepDelete := !b.Attributes.HasDeleteHorizon() || f.nowMs < b.BaseTimestamp
	return latest && (r.Value != nil || keepDelete)
}

// rebuild encodes the kept records as a batch with the original base offset, last
// offset, producer fields and codec; the base timestamp is the first kept record's (or
// the delete horizon, now + delete.retention.ms when it is set by this pass).
func (f *batchFilter) rebuild(b *RecordBatch, setHorizon bool) []byte {
	nb := RecordBatch{BatchHeader: b.BatchHeader, Records: make([]Record, len(f.kept))}
	copy(nb.Records, f.kept)
	logAppend := b.Attributes.TimestampType() == LogAppendTime
	base := b.Timestamp(&f.kept[0])
	switch {
	case setHorizon:
		nb.Attributes = nb.Attributes.WithDeleteHorizon()
		base = f.nowMs + f.deleteRetentionMs
	case b.Attributes.HasDeleteHorizon():
		base = b.BaseTimestamp
	case logAppend:
		base = b.BaseTimestamp
	}
	maxTs := int64(NoTimestamp)
	for i := range nb.Records {
		ts := b.Timestamp(&f.kept[i])
		if logAppend {
			ts = b.BaseTimestamp + f.kept[i].TimestampDelta
		}
		nb.Records[i].TimestampDelta = ts - base
		maxTs = max(maxTs, ts)
	}
	nb.BaseTimestamp = base
	if !logAppend {
		nb.MaxTimestamp = maxTs
	}
	return f.encode(&nb)
}

// emptyBatch is DefaultRecordBatch.writeEmptyHeader: the batch's offsets, producer
// fields and max timestamp with no records.
func emptyBatch(h *BatchHeader) *RecordBatch {
	e := RecordBatch{BatchHeader: *h}
	e.Attributes = NewAttributes(CompressionNone, h.Attributes.TimestampType(), h.Attributes.IsTransactional(), h.Attributes.IsControl())
	e.BaseTimestamp = NoTimestamp
	return &e
}
