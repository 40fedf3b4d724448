package kafkalog

import (
	"encoding/binary"
	"fmt"
)

// Parts are pieces of the log's algorithms that a caller may supply in place of this
// package's own: a segment's recovery, the offset lookup of a fetch and the retention
// rule. The learning kit plugs a learner's functions in with them (exercises/live). A
// nil field is this package's implementation, the reference; the zero Parts changes
// nothing and costs one nil check where the part would be used.
//
// A part answers with ok = false to decline a call (its caller caught a panic, a
// call that did not return in time, or a result out of range), and the log then uses
// its own answer for that call. The log also refuses, the same way, an answer it
// cannot act on without breaking its own files: a cut beyond the end of the .log, an
// index whose entries do not increase or point past the data, a fetch position that
// does not start a batch, more segments to delete than there are, the empty active
// segment. [Log.PartCalls] counts the answers used and refused.
//
// An answer that is wrong but usable is used, and the damage shows where Kafka would
// show it: a recovery that keeps a torn tail leaves bytes that are not a batch in the
// middle of the segment, a wrong lookup hands the fetch the wrong batch, a retention
// rule that deletes too much deletes records.
type Parts struct {
	// Recover walks the .log bytes of a segment from position 0 the way
	// LogSegment.recover does after an unclean shutdown and returns validBytes,
	// where the file is cut, and the rebuilt offset index (the bytes of a .index
	// file: 8-byte entries of relative offset and position, big-endian).
	Recover func(log []byte, baseOffset int64, indexIntervalBytes int) (validBytes int, index []byte, ok bool)
	// LookupIndex and FindBatch replace LogSegment.translateOffset in the reads of
	// [Log.Read] and [Log.ReadUpTo] (fetches): LookupIndex finds the largest offset
	// index entry at or below target in the bytes of the .index (the first entries
	// entries are valid) and returns its absolute offset and position, or
	// (baseOffset, 0); FindBatch scans the .log bytes from startPos for the first
	// batch whose last offset is at least target. Either may be nil.
	LookupIndex func(index []byte, entries int, baseOffset, target int64) (offset int64, position int32, ok bool)
	FindBatch   func(log []byte, startPos int32, target int64) (position int32, found bool, ok bool)
	// DeletableSegments replaces the retention rule of [Log.DeleteOldSegments]: how
	// many of the oldest segments go now (UnifiedLog.deleteOldSegments).
	DeletableSegments func(v RetentionView, nowMs int64) (n int, ok bool)
	// EncodeBatch encodes the batches the cleaner writes in place of those it
	// filtered (LogCleaner's MemoryRecords.filterTo): a batch rebuilt with the records
	// it keeps, whose offsets keep their gaps, and the empty batch it keeps for a
	// producer's last sequence or the end of the cleaned part
	// (DefaultRecordBatch.writeEmptyHeader). A batch it keeps whole is copied as it is,
	// and a compressed one is the log's to encode.
	EncodeBatch func(dst []byte, b *RecordBatch) (out []byte, ok bool)
}

// RetentionView is a log as the retention rule sees it.
type RetentionView struct {
	// Segments are oldest first; the last one is the active segment.
	Segments []RetentionSegment
	// LogEndOffset, HighWatermark and LogStartOffset are the log's.
	LogEndOffset, HighWatermark, LogStartOffset int64
	// RetentionMs and RetentionBytes are retention.ms and retention.bytes.
	RetentionMs, RetentionBytes int64
	// Delete is whether cleanup.policy contains "delete".
	Delete bool
}

// RetentionSegment is one segment as the retention rule sees it.
type RetentionSegment struct {
	// BaseOffset is the segment's first offset.
	BaseOffset int64
	// SizeInBytes is the size of its .log.
	SizeInBytes int64
	// FirstTimestamp is the max timestamp of its first batch (segment.ms rolls by it).
	FirstTimestamp int64
	// LargestTimestamp is the largest record timestamp in the segment.
	LargestTimestamp int64
}

// PartCalls counts the answers of a log's [Parts]: used, and refused by the log.
type PartCalls struct {
	// Recover counts segments recovered by Parts.Recover.
	Recover int
	// Lookup counts fetch reads whose batch Parts.LookupIndex and FindBatch found.
	Lookup int
	// Retention counts retention checks decided by Parts.DeletableSegments.
	Retention int
	// Encode counts batches the cleaner wrote with Parts.EncodeBatch.
	Encode int
	// Refused lists the answers the log could not use, newest last (at most 16).
	Refused []string
}

// WithParts makes the log use p's parts in place of its own (see [Parts]).
func WithParts(p Parts) Option { return func(o *openOptions) { o.parts = p } }

// PartCalls returns what the log's Parts answered so far.
func (l *Log) PartCalls() PartCalls {
	c := l.calls
	c.Refused = append([]string(nil), c.Refused...)
	return c
}

func (l *Log) refuse(format string, args ...any) {
	if len(l.calls.Refused) == 16 {
		l.calls.Refused = l.calls.Refused[1:]
	}
	l.calls.Refused = append(l.calls.Refused, fmt.Sprintf(format, args...))
}

// encodeCleaned encodes b, a batch the cleaner writes, with l.parts.EncodeBatch when
// it gives an answer the log can use: one whole batch (its length and CRC-32C hold)
// with b's base offset, record count and a last offset no higher than b's (the next
// batch starts above it). Otherwise the log encodes b itself.
func (l *Log) encodeCleaned(b *RecordBatch) []byte {
	if l.parts.EncodeBatch == nil || b.Attributes.Compression() != CompressionNone {
		return b.AppendTo(nil)
	}
	out, ok := l.parts.EncodeBatch(nil, b)
	if !ok {
		return b.AppendTo(nil)
	}
	h, n, err := CheckBatch(out)
	switch {
	case err != nil:
		l.refuse("encode the cleaned batch at %d: %v", b.BaseOffset, err)
	case n != len(out):
		l.refuse("encode the cleaned batch at %d: %d bytes after the batch", b.BaseOffset, len(out)-n)
	case h.BaseOffset != b.BaseOffset || h.NumRecords != int32(len(b.Records)) || h.LastOffset() > b.LastOffset():
		l.refuse("encode the cleaned batch at %d: baseOffset %d, %d records, last offset %d for baseOffset %d, %d records, last offset %d",
			b.BaseOffset, h.BaseOffset, h.NumRecords, h.LastOffset(), b.BaseOffset, len(b.Records), b.LastOffset())
	default:
		l.calls.Encode++
		return out
	}
	return b.AppendTo(nil)
}

// readAll reads the whole .log of s.
func (s *Segment) readAll() ([]byte, error) {
	b := make([]byte, s.size)
	if n, err := s.log.ReadAt(b, 0); int64(n) < s.size {
		return nil, fmt.Errorf("kafkalog: read %s: %w", s.log.Name(), err)
	}
	return b, nil
}

// batchStarts returns the positions of the batches of b read from position 0, as far
// as their length fields chain (no CRC check), and where the chain stops.
func batchStarts(b []byte) (map[int64]bool, int64) {
	out := map[int64]bool{}
	pos := int64(0)
	for int64(len(b))-pos >= HeaderLenUpToMagic {
		size, _, err := PeekBatch(b[pos:])
		if err != nil || pos+size > int64(len(b)) {
			break
		}
		out[pos] = true
		pos += size
	}
	return out, pos
}

// recoverWithPart replaces the reference scan sc of segment s with the answer of
// l.parts.Recover, when it gives one the log can use. The reference has already rebuilt
// the indexes, the largest timestamp and the epoch cache; the part's index replaces the
// offset index, and the end of the data is read again at the part's cut.
func (l *Log) recoverWithPart(s *Segment, sc recoveryScan) (recoveryScan, error) {
	data, err := s.readAll()
	if err != nil {
		return sc, err
	}
	valid, index, ok := l.parts.Recover(data, s.baseOffset, int(s.indexIntervalBytes))
	if !ok {
		return sc, nil
	}
	name := SegmentFileName(s.baseOffset, LogSuffix)
	if valid < 0 || int64(valid) > s.size {
		l.refuse("recover %s: validBytes %d outside the file's %d bytes", name, valid, s.size)
		return sc, nil
	}
	entries, err := checkPartIndex(index, s.baseOffset, int64(valid), s.oidx.MaxEntries())
	if err != nil {
		l.refuse("recover %s: %v", name, err)
		return sc, nil
	}
	if err := s.oidx.Reset(); err != nil {
		return sc, err
	}
	for _, e := range entries {
		if err := s.oidx.Append(e.Offset, e.Position); err != nil {
			return sc, err
		}
	}
	l.calls.Recover++
	out := recoveryScan{validBytes: int64(valid), next: s.baseOffset, byPart: true}
	if out.validBytes < sc.validBytes {
		out.bad = fmt.Errorf("%w: cut at %d by the recovery given in Parts", ErrCorruptBatch, valid)
	}
	// The offset after the last batch before the cut (a torn tail kept is not one).
	for pos := int64(0); pos < min(out.validBytes, int64(len(data))); {
		h, err := ReadBatchHeader(data[pos:])
		if err != nil || pos+h.Size() > out.validBytes {
			break
		}
		out.next = h.NextOffset()
		pos += h.Size()
	}
	return out, nil
}

// checkPartIndex decodes the index bytes a part rebuilt and checks that the log can
// use them: whole entries, increasing offsets at or above base, positions inside the
// data, no more than the index holds.
func checkPartIndex(index []byte, base, validBytes int64, maxEntries int) ([]OffsetPosition, error) {
	if len(index)%OffsetIndexEntrySize != 0 {
		return nil, fmt.Errorf("index of %d bytes is not whole %d-byte entries", len(index), OffsetIndexEntrySize)
	}
	n := len(index) / OffsetIndexEntrySize
	if n > maxEntries {
		return nil, fmt.Errorf("index of %d entries, room for %d", n, maxEntries)
	}
	out := make([]OffsetPosition, 0, n)
	for i := 0; i < n; i++ {
		rel := int32(binary.BigEndian.Uint32(index[8*i:]))
		pos := int64(int32(binary.BigEndian.Uint32(index[8*i+4:])))
		e := OffsetPosition{Offset: base + int64(rel), Position: pos}
		switch {
		case rel < 0:
			return nil, fmt.Errorf("index entry %d: relative offset %d", i, rel)
		case pos < 0 || pos >= max(validBytes, 1):
			return nil, fmt.Errorf("index entry %d: position %d outside the %d valid bytes", i, pos, validBytes)
		case i > 0 && (e.Offset <= out[i-1].Offset || e.Position <= out[i-1].Position):
			return nil, fmt.Errorf("index entry %d (%d at %d) does not follow entry %d (%d at %d)", i, e.Offset, e.Position, i-1, out[i-1].Offset, out[i-1].Position)
		}
		out = append(out, e)
	}
	return out, nil
}

// translateWithPart finds the batch of s for a fetch at offset with l.parts's lookup
// and scan (either may be nil: the reference's), and what the scan walked past: the
// batches between the position the lookup gave and the batch the scan returned
// (whichever comes first), or to the end of the segment when the scan found none.
// handled is false when the parts declined or gave a position the log refuses; the
// caller then uses translateScanned.
func (l *Log) translateWithPart(s *Segment, offset int64) (bp batchPos, walk scanned, found, handled bool, err error) {
	data, err := s.readAll()
	if err != nil {
		return batchPos{}, scanned{}, false, true, err
	}
	name := SegmentFileName(s.baseOffset, LogSuffix)
	start := s.oidx.Lookup(offset).Position
	if l.parts.LookupIndex != nil {
		// The bytes of the .index file: the active segment's is preallocated,
		// zeros after the valid entries.
		index := make([]byte, s.oidx.MaxEntries()*OffsetIndexEntrySize)
		copy(index, s.oidx.encode(0, s.oidx.Entries()))
		_, pos, ok := l.parts.LookupIndex(index, s.oidx.Entries(), s.baseOffset, offset)
		if !ok {
			return batchPos{}, scanned{}, false, false, nil
		}
		start = int64(pos)
	}
	starts, end := batchStarts(data)
	if start != end && !starts[start] {
		l.refuse("lookup of offset %d in %s: position %d does not start a batch", offset, name, start)
		return batchPos{}, scanned{}, false, false, nil
	}
	var pos int64
	if l.parts.FindBatch != nil {
		p, ok2, ok := l.parts.FindBatch(data, int32(start), offset)
		if !ok {
			return batchPos{}, scanned{}, false, false, nil
		}
		if !ok2 {
			l.calls.Lookup++
			return batchPos{}, walkedPast(data, start, end), false, true, nil
		}
		if !starts[int64(p)] {
			l.refuse("scan for offset %d in %s: position %d does not start a batch", offset, name, p)
			return batchPos{}, scanned{}, false, false, nil
		}
		pos = int64(p)
	} else {
		pos = -1
		for p := start; p < end; {
			h, err := ReadBatchHeader(data[p:])
			if err != nil {
				break
			}
			if h.LastOffset() >= offset {
				pos = p
				break
			}
			p += h.Size()
		}
		if pos < 0 {
			l.calls.Lookup++
			return batchPos{}, walkedPast(data, start, end), false, true, nil
		}
	}
	h, err := ReadBatchHeader(data[pos:])
	if err != nil {
		l.refuse("scan for offset %d in %s: position %d: %v", offset, name, pos, err)
		return batchPos{}, scanned{}, false, false, nil
	}
	l.calls.Lookup++
	return batchPos{pos: pos, size: h.Size(), hdr: h}, walkedPast(data, min(start, pos), max(start, pos)), true, true, nil
}

// walkedPast counts the batches of data that start in [from, to), both batch starts
// (or to the end of the chain), and their bytes.
func walkedPast(data []byte, from, to int64) scanned {
	var n int64
	for p := from; p < to; {
		size, _, err := PeekBatch(data[p:])
		if err != nil || size <= 0 {
			break
		}
		n++
		p += size
	}
	return scanned{batches: n, bytes: to - from}
}

// translateWithParts is translateScanned with l.parts's lookup and scan, when they
// give an answer the log can use.
func (l *Log) translateWithParts(s *Segment, offset int64) (batchPos, scanned, bool, error) {
	first, walk, ok, handled, err := l.translateWithPart(s, offset)
	if !handled {
		return s.translateScanned(offset, l.lookupBuf())
	}
	return first, walk, ok, err
}

// deletableWithPart asks l.parts.DeletableSegments how many segments retention deletes;
// handled is false when it declined or gave a count the log refuses.
func (l *Log) deletableWithPart(highWatermark, nowMs int64) (segs []*Segment, handled bool) {
	v := RetentionView{LogEndOffset: l.nextOffset, HighWatermark: highWatermark, LogStartOffset: l.logStartOffset,
		RetentionMs: l.cfg.RetentionMs, RetentionBytes: l.cfg.RetentionBytes, Delete: l.cfg.Delete()}
	for _, s := range l.segments {
		v.Segments = append(v.Segments, RetentionSegment{BaseOffset: s.baseOffset, SizeInBytes: s.size, FirstTimestamp: s.firstTimestamp(l.lookupBuf()), LargestTimestamp: s.largestTimestamp()})
	}
	n, ok := l.parts.DeletableSegments(v, nowMs)
	switch {
	case !ok:
		return nil, false
	case n < 0 || n > len(l.segments):
		l.refuse("retention: %d segments to delete, the log has %d", n, len(l.segments))
		return nil, false
	case n == len(l.segments) && l.active().size == 0:
		// Kafka's LocalLog.roll deletes an empty active segment and creates it
		// again at the same offset; this package keeps it (roll), so deleting
		// it is a decision the log cannot carry out.
		l.refuse("retention: %d segments to delete, the last the empty active segment %d", n, l.active().baseOffset)
		return nil, false
	}
	l.calls.Retention++
	return append([]*Segment(nil), l.segments[:n]...), true
}
