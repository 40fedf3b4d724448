package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrLegacyFormat means a .log file holds magic 0 or 1 messages where this package
// needs v2 batches (appending, recovery). Reading them with the record decoders is
// still possible; a log is never truncated because of them. Recovery reads bytes
// with magic 0 or 1 as a legacy message, as Kafka 3.7's FileLogInputStream does, and
// checks its CRC: only a message whose CRC holds is ErrLegacyFormat; one whose CRC
// fails (a v2 batch with a damaged magic byte) is a corrupt batch, and cut.
var ErrLegacyFormat = errors.New("kafkalog: legacy message format (magic 0/1) in segment")

// ErrOffsetOutOfRange means a read or lookup asked for an offset below the log start
// offset or beyond the log end offset (Kafka: OffsetOutOfRangeException).
var ErrOffsetOutOfRange = errors.New("kafkalog: offset out of range")

// RecoveryBufferSize is the size of the one buffer recovery reads a segment through.
const RecoveryBufferSize = 1 << 20

// lookupBufferSize is the buffer a fetch uses to walk batch headers from an index entry.
const lookupBufferSize = 8 << 10

// batchScanner walks the batches of a .log file from a position, reading through one
// reused buffer, the way Kafka's FileLogInputStream does: it stops silently at a torn
// tail (fewer than 17 bytes left, or a batch that runs past the end of the file) and
// stops with an error at a batch that is not valid. With verify it also checks each
// batch's header and CRC without decoding records; a batch larger than the buffer is
// CRC'd in buffer-sized pieces, so memory stays bounded whatever the file holds.
type batchScanner struct {
	f      vfs.File
	name   string
	end    int64 // file size: nothing at or past it is read
	verify bool
	buf    []byte
	bufPos int64 // file position of buf[0]
	n      int   // valid bytes in buf

	pos  int64       // position of the current batch
	size int64       // size of the current batch
	hdr  BatchHeader // header of the current batch
	next int64       // position after the current batch

	torn bool  // stopped at a torn tail
	err  error // stopped at an invalid batch or an I/O error
}

func newBatchScanner(f vfs.File, name string, start, end int64, buf []byte, verify bool) *batchScanner {
	return &batchScanner{f: f, name: name, end: end, buf: buf, verify: verify, next: start, bufPos: start}
}

// window returns the bytes of the file in [pos, pos+need), reading them into the
// buffer if needed. need must be at most len(s.buf) and pos+need at most s.end.
func (s *batchScanner) window(pos int64, need int) ([]byte, error) {
	if pos >= s.bufPos && pos+int64(need) <= s.bufPos+int64(s.n) {
		off := int(pos - s.bufPos)
		return s.buf[off : off+need], nil
	}
	keep := 0
	if pos >= s.bufPos && pos < s.bufPos+int64(s.n) {
		keep = copy(s.buf, s.buf[pos-s.bufPos:s.n])
	}
	want := len(s.buf)
	if rest := s.end - pos; rest < int64(want) {
		want = int(rest)
	}
	got, err := s.f.ReadAt(s.buf[keep:want], pos+int64(keep))
	if err != nil && !(errors.Is(err, io.EOF) && keep+got >= need) {
		if errors.Is(err, io.EOF) {
			// The file shrank under us: treat what is missing as a torn tail.
			s.end = pos + int64(keep+got)
			return nil, io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("kafkalog: read %s at %d: %w", s.name, pos+int64(keep), err)
	}
	s.bufPos, s.n = pos, keep+got
	if s.n < need {
		s.end = pos + int64(s.n)
		return nil, io.ErrUnexpectedEOF
	}
	return s.buf[:need], nil
}

// Next advances to the next batch and reports whether there is one. After false,
// s.torn or s.err says why it stopped (neither: the file ended on a batch boundary).
func (s *batchScanner) Next() bool {
	s.pos = s.next
	if s.err != nil || s.torn {
		return false
	}
	if s.end-s.pos < HeaderLenUpToMagic {
		s.torn = s.end > s.pos
		return false
	}
	head, err := s.window(s.pos, HeaderLenUpToMagic)
	if err != nil {
		return s.stop(err)
	}
	size, magic, err := PeekBatch(head)
	if err != nil {
		return s.stop(err)
	}
	if s.pos+size > s.end {
		s.torn = true // Kafka's FileLogInputStream: "not a batch" yet
		return false
	}
	if magic != MagicV2 {
		if magic == 0 || magic == 1 {
			if s.verify {
				// A checking scan reads it as Kafka's FileLogInputStream does, as a
				// legacy message whose CRC-32/IEEE must hold: one that fails is
				// damaged bytes (a v2 batch whose magic byte was hit), cut like any
				// corrupt batch; one that holds is a real legacy message.
				if err := s.checkLegacyCRC(size, magic); err != nil {
					return s.stop(err)
				}
			}
			return s.stop(fmt.Errorf("%w: magic %d", ErrLegacyFormat, magic))
		}
		return s.stop(fmt.Errorf("%w: %d", ErrUnknownMagic, magic))
	}
	if err := s.readBatch(size); err != nil {
		return s.stop(err)
	}
	s.size, s.next = size, s.pos+size
	return true
}

// readBatch parses (and with verify checks) the v2 batch of size bytes at s.pos.
func (s *batchScanner) readBatch(size int64) error {
	if s.verify && size <= int64(len(s.buf)) {
		b, err := s.window(s.pos, int(size))
		if err != nil {
			return err
		}
		s.hdr, _, err = CheckBatch(b)
		return err
	}
	b, err := s.window(s.pos, int(min(size, BatchHeaderLen)))
	if err != nil {
		return err
	}
	if s.hdr, err = ReadBatchHeader(b); err != nil {
		return err
	}
	if s.verify {
		return s.streamCRC(size)
	}
	return nil
}

// eachChunk reads the file's bytes [from, to) through the buffer, a
// buffer's worth at a time, and hands each piece to fn. The buffer then no
// longer holds the file at bufPos.
func (s *batchScanner) eachChunk(from, to int64, fn func([]byte)) error {
	s.n = 0
	for p := from; p < to; {
		chunk := int(min(int64(len(s.buf)), to-p))
		got, err := s.f.ReadAt(s.buf[:chunk], p)
		if got < chunk {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("kafkalog: read %s at %d: %w", s.name, p, err)
		}
		fn(s.buf[:chunk])
		p += int64(chunk)
	}
	return nil
}

// streamCRC checks the CRC of a batch too large for the buffer, piece by piece.
func (s *batchScanner) streamCRC(size int64) error {
	crc := uint32(0)
	if err := s.eachChunk(s.pos+posAttributes, s.pos+size, func(b []byte) { crc = UpdateCRC32C(crc, b) }); err != nil {
		return err
	}
	if crc != s.hdr.CRC {
		return batchErr(s.hdr.BaseOffset, 0, "crc", fmt.Errorf("%w: stored crc 0x%08x, computed 0x%08x", ErrCorruptBatch, s.hdr.CRC, crc))
	}
	return nil
}

// checkLegacyCRC checks the CRC-32/IEEE of the magic 0 or 1 message of size bytes
// at s.pos (LegacyRecord.ensureValid: the checksum after the 12-byte log overhead
// covers the message from its magic byte on), reading it piece by piece if it is
// larger than the buffer. A mismatch is ErrCorruptBatch.
func (s *batchScanner) checkLegacyCRC(size int64, magic int8) error {
	head, err := s.window(s.pos, HeaderLenUpToMagic)
	if err != nil {
		return err
	}
	base, stored := int64(binary.BigEndian.Uint64(head)), binary.BigEndian.Uint32(head[LogOverhead:])
	var crc uint32
	if size <= int64(len(s.buf)) {
		b, err := s.window(s.pos, int(size))
		if err != nil {
			return err
		}
		crc = crc32.ChecksumIEEE(b[posMagic:])
	} else if err := s.eachChunk(s.pos+posMagic, s.pos+size, func(b []byte) { crc = crc32.Update(crc, crc32.IEEETable, b) }); err != nil {
		return err
	}
	if crc != stored {
		return batchErr(base, 0, "crc", fmt.Errorf("%w: magic %d, read as a legacy message: stored crc 0x%08x, computed 0x%08x (CRC-32/IEEE)", ErrCorruptBatch, magic, stored, crc))
	}
	return nil
}

// stop records why the scan ended. A file that shrank is a torn tail; a batch error
// gets its position in the file.
func (s *batchScanner) stop(err error) bool {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		s.torn = true
		return false
	}
	var be *BatchError
	if errors.As(err, &be) {
		be.Pos = s.pos
	}
	s.err = fmt.Errorf("%s: %w", s.name, err)
	return false
}

// batchPos is a batch found in a segment: where it starts, its size and its header.
type batchPos struct {
	pos  int64
	size int64
	hdr  BatchHeader
}

// translateOffset finds the first batch of the segment whose last offset is ≥ offset,
// starting from the index entry at or below it and scanning headers forward
// (LogSegment.translateOffset, FileRecords.searchForOffsetWithSize). ok is false if no
// batch of the segment reaches offset.
func (s *Segment) translateOffset(offset int64, buf []byte) (batchPos, bool, error) {
	b, _, ok, err := s.translateScanned(offset, buf)
	return b, ok, err
}

// scanned is what the scan of a fetch read walked past: the batches between the
// position the offset index gave and the batch returned, and their bytes.
type scanned struct{ batches, bytes int64 }

// translateScanned is translateOffset, also saying what its scan walked past: the
// batches whose last offset is below offset, from the index entry's position on
// (all of them, to the end of the segment, when none reaches offset).
func (s *Segment) translateScanned(offset int64, buf []byte) (batchPos, scanned, bool, error) {
	start := s.oidx.Lookup(offset).Position
	sc := newBatchScanner(s.log, s.log.Name(), start, s.size, buf, false)
	var walked int64
	for sc.Next() {
		if sc.hdr.LastOffset() >= offset {
			return batchPos{pos: sc.pos, size: sc.size, hdr: sc.hdr}, scanned{walked, sc.pos - start}, true, nil
		}
		walked++
	}
	return batchPos{}, scanned{walked, sc.pos - start}, false, sc.err
}

// readFrom returns whole batches from the first batch whose last offset is ≥ offset,
// up to maxBytes and not past maxPosition; the first batch is returned whole even if
// it is larger than maxBytes (a fetch with minOneMessage, LogSegment.read). It returns
// nil if the segment holds nothing at or after offset.
func (s *Segment) readFrom(offset int64, maxBytes int, maxPosition int64, buf []byte) ([]byte, error) {
	first, ok, err := s.translateOffset(offset, buf)
	return s.readBatchesFrom(first, ok, err, maxBytes, maxPosition)
}

// readBatchesFrom is readFrom from the batch first (found: ok).
func (s *Segment) readBatchesFrom(first batchPos, ok bool, err error, maxBytes int, maxPosition int64) ([]byte, error) {
	if err != nil || !ok || first.pos >= maxPosition {
		return nil, err
	}
	limit := min(maxPosition, first.pos+max(int64(maxBytes), first.size))
	out := make([]byte, limit-first.pos)
	if n, err := s.log.ReadAt(out, first.pos); n < len(out) {
		return nil, fmt.Errorf("kafkalog: read %s at %d: %w", s.log.Name(), first.pos, err)
	}
	return out[:wholeBatches(out)], nil
}

// wholeBatches returns the length of the longest prefix of b made of whole batches.
func wholeBatches(b []byte) int {
	n := 0
	for len(b)-n >= HeaderLenUpToMagic {
		size, _, err := PeekBatch(b[n:])
		if err != nil || size > int64(len(b)-n) {
			break
		}
		n += int(size)
	}
	return n
}

// readNextOffset returns the offset after the segment's last batch, or its base offset
// if it is empty (LogSegment.readNextOffset).
func (s *Segment) readNextOffset(buf []byte) (int64, error) {
	start := s.oidx.Lookup(s.oidx.LastOffset()).Position
	sc := newBatchScanner(s.log, s.log.Name(), start, s.size, buf, false)
	next := s.baseOffset
	for sc.Next() {
		next = sc.hdr.NextOffset()
	}
	return next, sc.err
}

// firstTimestamp returns the max timestamp of the segment's first batch, which
// segment.ms measures from (LogSegment.loadFirstBatchTimestamp), or NoTimestamp if
// the segment is empty.
func (s *Segment) firstTimestamp(buf []byte) int64 {
	if !s.firstBatchTimestampKnown {
		sc := newBatchScanner(s.log, s.log.Name(), 0, s.size, buf, false)
		if sc.Next() {
			s.firstBatchTimestamp = sc.hdr.MaxTimestamp
		}
		s.firstBatchTimestampKnown = s.size > 0
	}
	return s.firstBatchTimestamp
}

// findOffsetByTimestamp returns the offset of the first record of the segment at or
// after startingOffset whose timestamp is ≥ ts, and that timestamp
// (LogSegment.findOffsetByTimestamp): a time-index lookup, an offset-index lookup,
// then a scan that decodes only the batch whose max timestamp reaches ts.
func (s *Segment) findOffsetByTimestamp(ts, startingOffset int64, buf []byte) (offset, timestamp int64, ok bool, err error) {
	from := max(s.tidx.Lookup(ts).Offset, startingOffset)
	start := s.oidx.Lookup(from).Position
	sc := newBatchScanner(s.log, s.log.Name(), start, s.size, buf, false)
	for sc.Next() {
		if sc.hdr.MaxTimestamp < ts || sc.hdr.LastOffset() < startingOffset {
			continue
		}
		raw := make([]byte, sc.size)
		if n, err := s.log.ReadAt(raw, sc.pos); n < len(raw) {
			return 0, 0, false, fmt.Errorf("kafkalog: read %s at %d: %w", s.log.Name(), sc.pos, err)
		}
		b, _, err := ReadBatch(raw)
		if err != nil {
			return 0, 0, false, err
		}
		for i := range b.Records {
			r := &b.Records[i]
			if o, t := b.Offset(r), b.Timestamp(r); t >= ts && o >= startingOffset {
				return o, t, true, nil
			}
		}
	}
	return 0, 0, false, sc.err
}

// Read returns whole batches from the first batch holding an offset ≥ offset, up to
// maxBytes (but at least one batch, however large), the way a fetch reads the log
// (UnifiedLog.read with minOneMessage). Reading at the LEO returns nothing; below the
// log start offset or beyond the LEO is ErrOffsetOutOfRange.
func (l *Log) Read(offset int64, maxBytes int) ([]byte, error) {
	return l.ReadUpTo(offset, maxBytes, l.nextOffset)
}

// ReadUpTo is Read that stops before the batch holding maxOffset (a high watermark or
// last stable offset: what a consumer may see).
func (l *Log) ReadUpTo(offset int64, maxBytes int, maxOffset int64) ([]byte, error) {
	f, err := l.locate(offset, maxOffset)
	if err != nil || !f.ok {
		return nil, err
	}
	return f.seg.readBatchesFrom(f.first, true, nil, maxBytes, f.maxPos)
}

// FetchStart is where a fetch read begins: its first batch, and where that batch is.
type FetchStart struct {
	// SegmentBaseOffset is the base offset of the segment holding the batch, and
	// Position the batch's position in the segment's .log (the LogOffsetMetadata that
	// Kafka's LocalLog.read returns with its records).
	SegmentBaseOffset, Position int64
	// BaseOffset and LastOffset are the batch's.
	BaseOffset, LastOffset int64
}

// Locate finds the batch a fetch at offset, up to maxOffset, reads first, without
// reading it. It looks the offset up and scans as [Log.ReadUpTo] does, Parts
// included, and [Log.ReadStats] counts it as a read; ok is false when that read
// returns nothing.
func (l *Log) Locate(offset, maxOffset int64) (FetchStart, bool, error) {
	f, err := l.locate(offset, maxOffset)
	if err != nil || !f.ok {
		return FetchStart{}, false, err
	}
	return f.start(), true, nil
}

// LastRead returns the offset the log's latest fetch read asked for and where its
// records began; ok is false when that read returned nothing (or the log has made no
// read yet).
func (l *Log) LastRead() (offset int64, start FetchStart, ok bool) {
	return l.lastRead.offset, l.lastRead.start, l.lastRead.ok
}

// ReadStats counts what the log's fetch reads ([Log.Read], [Log.ReadUpTo],
// [Log.Locate]) did: how far the offset index left their scans to walk. Kafka's read
// of a segment (LogSegment.translateOffset) looks the offset up in the offset index
// (OffsetIndex.lookup: the largest entry at or below it), then reads the headers of
// the batches from that entry's position on until one's last offset reaches the
// offset (FileRecords.searchForOffsetWithSize); the sparser the index, or the
// further back the lookup lands, the more headers a read walks past.
type ReadStats struct {
	// Reads counts the reads that looked an offset up: a read below maxOffset (a read
	// at it returns nothing and looks nothing up, as LocalLog.read's).
	Reads int64
	// ScannedBatches counts the batch headers the reads' scans walked past: from the
	// position the index gave, the batches whose last offset is below the offset read,
	// up to the batch the read returns (in a segment holding no batch that reaches the
	// offset, every batch from there to its end; the read then goes on to the next
	// segment, LocalLog.read).
	ScannedBatches int64
	// ScannedBytes counts the bytes of those batches: for a read within one segment,
	// the position of the batch returned less the position the index gave.
	ScannedBytes int64
}

// ReadStats returns what the log's fetch reads did so far.
func (l *Log) ReadStats() ReadStats { return l.reads }

// lastRead is what [Log.LastRead] answers.
type lastRead struct {
	offset int64
	start  FetchStart
	ok     bool
}

// located is where a fetch read at offset found its first batch.
type located struct {
	offset int64
	seg    *Segment
	first  batchPos
	maxPos int64 // where the read stops: the position of the batch holding maxOffset
	ok     bool
}

func (f located) start() FetchStart {
	if !f.ok {
		return FetchStart{}
	}
	return FetchStart{SegmentBaseOffset: f.seg.baseOffset, Position: f.first.pos, BaseOffset: f.first.hdr.BaseOffset, LastOffset: f.first.hdr.LastOffset()}
}

// locate finds the first batch a read at offset up to maxOffset returns, segment
// after segment from the one holding offset (LocalLog.read), with l.parts's lookup
// when given, and counts the read in l.reads.
func (l *Log) locate(offset, maxOffset int64) (located, error) {
	if err := l.usable(); err != nil {
		return located{}, err
	}
	if offset < l.logStartOffset || offset > l.nextOffset {
		return located{}, fmt.Errorf("%w: offset %d, log %s has [%d, %d)", ErrOffsetOutOfRange, offset, l.dir, l.logStartOffset, l.nextOffset)
	}
	maxOffset = min(maxOffset, l.nextOffset)
	if offset < maxOffset {
		l.reads.Reads++
		l.lastRead = lastRead{offset: offset}
	}
	for i := max(0, l.floorSegment(offset)); i < len(l.segments) && offset < maxOffset; i++ {
		s := l.segments[i]
		maxPos, err := l.positionOf(i, maxOffset)
		if err != nil {
			return located{}, err
		}
		var (
			first batchPos
			walk  scanned
			ok    bool
		)
		if l.parts.LookupIndex != nil || l.parts.FindBatch != nil {
			first, walk, ok, err = l.translateWithParts(s, offset)
		} else {
			first, walk, ok, err = s.translateScanned(offset, l.lookupBuf())
		}
		l.reads.ScannedBatches += walk.batches
		l.reads.ScannedBytes += walk.bytes
		if err != nil {
			return located{}, err
		}
		// A batch at or past maxPos is not read; nor, in this segment, is any after it.
		if ok && first.pos < maxPos {
			found := located{offset: offset, seg: s, first: first, maxPos: maxPos, ok: true}
			l.lastRead = lastRead{offset: offset, start: found.start(), ok: true}
			return found, nil
		}
	}
	return located{}, nil
}

// positionOf returns where reading segment i must stop so as not to return the batch
// holding maxOffset: that batch's position if it is in segment i, else the segment's size.
func (l *Log) positionOf(i int, maxOffset int64) (int64, error) {
	s := l.segments[i]
	if l.upperBound(i) <= maxOffset {
		return s.size, nil
	}
	b, ok, err := s.translateOffset(maxOffset, l.lookupBuf())
	if err != nil || !ok {
		return s.size, err
	}
	return b.pos, nil
}

// OffsetForTimestamp answers ListOffsets by time: the first offset at or after the log
// start offset whose record timestamp is ≥ ts, and that timestamp (UnifiedLog
// fetchOffsetByTimestamp). Segments whose largest timestamp is below ts are skipped;
// within a segment the time index, then the offset index narrow the scan. ok is false
// if no record is that late.
func (l *Log) OffsetForTimestamp(ts int64) (offset, timestamp int64, ok bool, err error) {
	if err := l.usable(); err != nil {
		return 0, 0, false, err
	}
	for _, s := range l.segments {
		if s.largestTimestamp() < ts && s.maxTimestampSoFar >= 0 {
			continue
		}
		o, t, found, err := s.findOffsetByTimestamp(ts, l.logStartOffset, l.lookupBuf())
		if err != nil || found {
			return o, t, found, err
		}
	}
	return 0, 0, false, nil
}

// Special timestamps of a ListOffsets request (ListOffsetsRequest.LATEST_TIMESTAMP,
// EARLIEST_TIMESTAMP).
const (
	ListOffsetsLatest   = -1
	ListOffsetsEarliest = -2
)

// ListOffset answers a ListOffsets request for one partition: ListOffsetsLatest gives
// the LEO, ListOffsetsEarliest the log start offset, any other timestamp ≥ 0 the first
// offset whose record timestamp is ≥ it (OffsetForTimestamp); ok is false if there is
// none, and for other negative timestamps (not supported here).
func (l *Log) ListOffset(ts int64) (offset int64, ok bool, err error) {
	if err := l.usable(); err != nil {
		return 0, false, err
	}
	switch {
	case ts == ListOffsetsLatest:
		return l.nextOffset, true, nil
	case ts == ListOffsetsEarliest:
		return l.logStartOffset, true, nil
	case ts < 0:
		return 0, false, nil
	}
	offset, _, ok, err = l.OffsetForTimestamp(ts)
	return offset, ok, err
}

// OffsetOfMaxTimestamp answers ListOffsets' MAX_TIMESTAMP (-3, KIP-734) as
// Kafka 4's UnifiedLog.fetchOffsetByTimestamp does: the first record that
// carries the log's largest timestamp, with that timestamp and the leader
// epoch of its batch (-1 for none). Under LogAppendTime a batch's records
// all carry its MaxTimestamp, so its base offset is the one. Records
// below the log start offset (DeleteRecords inside a batch) do not count.
// ok is false for a log without records. (Kafka 3.7 answered the last offset of that
// record's batch and the latest epoch; KAFKA-16310 fixed it in 3.8.)
func (l *Log) OffsetOfMaxTimestamp() (offset, timestamp int64, epoch int32, ok bool, err error) {
	if l.closed {
		return 0, 0, 0, false, ErrLogClosed
	}
	var best []byte
	timestamp = NoTimestamp
	err = l.eachBatch(l.logStartOffset, l.nextOffset, func(_ *Segment, h *BatchHeader, raw []byte) (bool, error) {
		if h.BaseOffset+int64(h.LastOffsetDelta) < l.logStartOffset {
			return true, nil
		}
		top := h.MaxTimestamp
		if h.BaseOffset < l.logStartOffset { // only its records from the log start count
			b, _, err := ReadBatch(raw)
			if err != nil {
				return false, err
			}
			top = NoTimestamp
			for i := range b.Records {
				if b.Offset(&b.Records[i]) >= l.logStartOffset {
					top = max(top, b.Timestamp(&b.Records[i]))
				}
			}
		}
		if top > timestamp {
			timestamp, best = top, append(best[:0], raw...)
		}
		return true, nil
	})
	if err != nil || best == nil {
		return 0, 0, 0, false, err
	}
	b, _, err := ReadBatch(best)
	if err != nil {
		return 0, 0, 0, false, err
	}
	epoch = b.PartitionLeaderEpoch
	if epoch < 0 {
		epoch = -1
	}
	for i := range b.Records {
		r := &b.Records[i]
		if b.Timestamp(r) == timestamp && b.Offset(r) >= l.logStartOffset {
			return b.Offset(r), timestamp, epoch, true, nil
		}
	}
	return b.BaseOffset, timestamp, epoch, true, nil
}
