package dumplog

import (
	"errors"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// segmentReader reads the batches of a .log file one at a time through one
// reused buffer, so that dumping a 1 GiB segment takes memory for its largest
// batch only.
type segmentReader struct {
	f   vfs.File
	buf []byte
}

// readStatus says what segmentReader.read found.
type readStatus int

const (
	readBatch readStatus = iota // a whole entry
	readEnd                     // exactly at the limit
	readTorn                    // the limit falls inside an entry
	readBad                     // the size field is impossible
)

// read returns the entry (batch or legacy message) at pos, not going past limit.
// For a torn entry it returns the size the entry declares (0 if fewer than 17
// bytes remain); for a bad one, the error.
func (r *segmentReader) read(pos, limit int64) ([]byte, readStatus, int64, error) {
	rest := limit - pos
	if rest <= 0 {
		return nil, readEnd, 0, nil
	}
	if rest < kafkalog.HeaderLenUpToMagic {
		return nil, readTorn, 0, nil
	}
	hdr := r.grow(kafkalog.HeaderLenUpToMagic)
	if err := vfs.ReadAtFull(r.f, hdr, pos); err != nil {
		return nil, readBad, 0, err
	}
	size, _, err := kafkalog.PeekBatch(hdr)
	if err != nil {
		return nil, readBad, 0, err
	}
	if size > rest {
		return nil, readTorn, size, nil
	}
	b := r.grow(int(size))
	if err := vfs.ReadAtFull(r.f, b, pos); err != nil {
		return nil, readBad, 0, err
	}
	return b, readBatch, size, nil
}

// atPosition adds pos to the position of a *kafkalog.BatchError (decoders count
// from the slice they were given) or prefixes other errors with it.
func atPosition(err error, pos int64) error {
	var be *kafkalog.BatchError
	if errors.As(err, &be) {
		c := *be
		c.Pos += pos
		return &c
	}
	return fmt.Errorf("position %d: %w", pos, err)
}

func (r *segmentReader) grow(n int) []byte {
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	return r.buf[:n]
}

// dumpLog prints a .log file (or a KRaft .checkpoint) batch by batch, like
// DumpLogSegments.dumpLog.
func (d *dumper) dumpLog(file string) {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	switch {
	case kindOf(file) == kindKRaftSnapshot && base == "bootstrap.checkpoint":
		fmt.Fprintln(d.out, "KRaft bootstrap snapshot")
	case kindOf(file) == kindKRaftSnapshot:
		if off, epoch, ok := parseKRaftSnapshotName(base); ok {
			fmt.Fprintf(d.out, "Snapshot end offset: %d, epoch: %d\n", off, epoch)
		}
	default:
		if off, ok := baseOffsetOf(file); ok {
			fmt.Fprintf(d.out, "Log starting offset: %d\n", off)
		}
	}
	f, err := d.fsys.Open(file)
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	limit := min(size, d.opts.maxBytes)
	ld := logDump{d: d, file: file, r: segmentReader{f: f}, lastOffset: -1}
	valid := ld.run(limit, limit < size)
	if trailing := limit - valid; trailing > 0 && d.opts.maxBytes == math.MaxInt32 {
		fmt.Fprintf(d.out, "Found %d invalid bytes at the end of %s\n", trailing, base)
	}
	if len(ld.gaps) > 0 {
		if _, seen := d.nonConsecutive[file]; !seen {
			d.gapOrder = append(d.gapOrder, file)
		}
		// Kafka prepends each pair to a list, so prints them newest first.
		for i := len(ld.gaps) - 1; i >= 0; i-- {
			d.nonConsecutive[file] = append(d.nonConsecutive[file], ld.gaps[i])
		}
	}
}

// parseKRaftSnapshotName parses "<20-digit offset>-<10-digit epoch>.checkpoint".
func parseKRaftSnapshotName(name string) (offset int64, epoch int32, ok bool) {
	stem := strings.TrimSuffix(name, kraftSnapshotSuffix)
	o, e, found := strings.Cut(stem, "-")
	if !found {
		return 0, 0, false
	}
	off, err1 := strconv.ParseInt(o, 10, 64)
	ep, err2 := strconv.ParseInt(e, 10, 32)
	return off, int32(ep), err1 == nil && err2 == nil
}

// logDump is the state of dumping one .log file.
type logDump struct {
	d          *dumper
	file       string
	r          segmentReader
	dec        kafkalog.Decoder
	batch      kafkalog.RecordBatch
	scratch    []byte
	lastOffset int64
	gaps       []offsetPair
}

// run prints every entry up to limit and returns the valid bytes: where the
// last whole entry ends. cut says that --max-bytes, not the file, ends at limit.
func (ld *logDump) run(limit int64, cut bool) int64 {
	pos := int64(0)
	for {
		b, status, declared, err := ld.r.read(pos, limit)
		switch status {
		case readEnd:
			return pos
		case readTorn:
			if cut {
				return pos // --max-bytes cut the file: not damage
			}
			if declared > 0 {
				ld.d.problem(ld.file, "position %d: torn batch: it declares %d bytes, %d are present", pos, declared, limit-pos)
			} else {
				ld.d.problem(ld.file, "position %d: torn batch: %d bytes, fewer than a batch header's first %d", pos, limit-pos, kafkalog.HeaderLenUpToMagic)
			}
			return pos
		case readBad:
			ld.d.problem(ld.file, "%v", atPosition(err, pos))
			return pos
		}
		it := kafkalog.NewBatchIter(b, pos)
		if !it.Next() {
			ld.d.problem(ld.file, "%v", it.Err())
			return pos
		}
		ld.entry(it.Entry())
		pos += int64(len(b))
	}
}

// entry prints one batch (and its records, with --deep-iteration).
func (ld *logDump) entry(e *kafkalog.LogEntry) {
	checkErr := e.Check()
	if e.Magic == kafkalog.MagicV2 {
		ld.printBatchV2(e, checkErr == nil)
	} else {
		ld.printLegacyBatch(e, checkErr == nil)
	}
	if checkErr != nil {
		ld.d.problem(ld.file, "%v", checkErr)
	}
	if !ld.d.opts.deep {
		return
	}
	if e.Magic == kafkalog.MagicV2 {
		ld.recordsV2(e, checkErr != nil)
	} else {
		ld.recordsLegacy(e)
	}
}

func optionalLong(set bool, v int64) string {
	if !set {
		return "OptionalLong.empty"
	}
	return "OptionalLong[" + strconv.FormatInt(v, 10) + "]"
}

// printBatchV2 prints DumpLogSegments.printBatchLevel for a v2 batch.
func (ld *logDump) printBatchV2(e *kafkalog.LogEntry, valid bool) {
	h := &e.Header
	a := h.Attributes
	fmt.Fprintf(ld.d.out, "baseOffset: %d lastOffset: %d count: %d baseSequence: %d lastSequence: %d producerId: %d producerEpoch: %d partitionLeaderEpoch: %d isTransactional: %t isControl: %t deleteHorizonMs: %s",
		h.BaseOffset, h.LastOffset(), h.NumRecords, h.BaseSequence, h.LastSequence(), h.ProducerID, h.ProducerEpoch,
		h.PartitionLeaderEpoch, a.IsTransactional(), a.IsControl(), optionalLong(a.HasDeleteHorizon(), h.BaseTimestamp))
	fmt.Fprintf(ld.d.out, " position: %d %s: %d size: %d magic: %d compresscodec: %s crc: %d isvalid: %t\n",
		e.Pos, a.TimestampType(), h.MaxTimestamp, h.Size(), h.Magic, a.Compression(), h.CRC, valid)
}

// printLegacyBatch prints printBatchLevel for a magic 0 or 1 message.
func (ld *logDump) printLegacyBatch(e *kafkalog.LogEntry, valid bool) {
	m := &e.Legacy
	fmt.Fprintf(ld.d.out, "offset: %d position: %d %s: %d size: %d magic: %d compresscodec: %s crc: %d isvalid: %t\n",
		m.Offset, e.Pos, m.TimestampType(), m.Timestamp, m.Size(), m.Magic, m.Compression(), m.CRC, valid)
}

// recordsV2 prints the records of a v2 batch. Kafka's deep iteration does not
// check the CRC, so a batch whose CRC is wrong still shows its records: we
// decode a copy with the CRC recomputed.
func (ld *logDump) recordsV2(e *kafkalog.LogEntry, badCRC bool) {
	src := e.Bytes
	if badCRC {
		ld.scratch = append(ld.scratch[:0], src...)
		if len(ld.scratch) >= kafkalog.BatchHeaderLen {
			crc := kafkalog.CRC32C(ld.scratch[21:])
			ld.scratch[17], ld.scratch[18], ld.scratch[19], ld.scratch[20] = byte(crc>>24), byte(crc>>16), byte(crc>>8), byte(crc)
		}
		src = ld.scratch
	}
	if _, err := ld.dec.Decode(src, &ld.batch); err != nil {
		ld.d.problem(ld.file, "%v", atPosition(err, e.Pos))
		return
	}
	h := &ld.batch.BatchHeader
	for i := range ld.batch.Records {
		r := &ld.batch.Records[i]
		off := h.Offset(r)
		ld.checkConsecutive(off)
		var line strings.Builder
		prefix := "| "
		if !ld.d.opts.skipMetadata {
			fmt.Fprintf(&line, "| offset: %d %s: %d keySize: %d valueSize: %d sequence: %d headerKeys: [%s]",
				off, h.Attributes.TimestampType(), h.Timestamp(r), bytesSize(r.Key), bytesSize(r.Value), recordSequence(h, r), headerKeys(r))
			prefix = " "
			if h.Attributes.IsControl() {
				line.WriteString(ld.controlInfo(e.Pos, r))
			}
		}
		if ld.d.opts.printData && !h.Attributes.IsControl() {
			ld.appendContent(&line, prefix, off, r.Key, r.Value)
		}
		fmt.Fprintln(ld.d.out, line.String())
	}
}

func (ld *logDump) checkConsecutive(off int64) {
	if ld.lastOffset != -1 && off != ld.lastOffset+1 {
		ld.gaps = append(ld.gaps, offsetPair{ld.lastOffset, off})
	}
	ld.lastOffset = off
}

// controlInfo describes a control record: the transaction marker, or the type.
// (Kafka prints KRaft snapshot and voter records as JSON; we print their type.)
func (ld *logDump) controlInfo(pos int64, r *kafkalog.Record) string {
	k, err := kafkalog.ParseControlRecordKey(r.Key)
	if err != nil {
		ld.d.problem(ld.file, "position %d: control record key: %v", pos, err)
		return ""
	}
	if k.Type.IsTxnMarker() {
		m, err := kafkalog.ParseEndTxnMarker(r.Value)
		if err != nil {
			ld.d.problem(ld.file, "position %d: end transaction marker: %v", pos, err)
			return ""
		}
		return fmt.Sprintf(" endTxnMarker: %s coordinatorEpoch: %d", k.Type, m.CoordinatorEpoch)
	}
	if s, ok := kraftControlJSON(k.Type, r.Value); ok {
		return s
	}
	return fmt.Sprintf(" controlType: %s(%d)", k.Type, k.TypeID)
}

// kraftControlJSON prints the KRaft snapshot header and footer and the KRaft
// version record as Kafka's JSON converters do. (Voters records, and anything
// that does not parse, fall back to the type.)
func kraftControlJSON(t kafkalog.ControlRecordType, value []byte) (string, bool) {
	r := &schemaReader{b: value, flexible: true}
	var j jsonObject
	var name string
	switch t {
	case kafkalog.ControlSnapshotHeader:
		name = "SnapshotHeader"
		j.num("version", int64(r.int16()))
		j.num("lastContainedLogTimestamp", r.int64())
	case kafkalog.ControlSnapshotFooter:
		name = "SnapshotFooter"
		j.num("version", int64(r.int16()))
	case kafkalog.ControlKRaftVersion:
		name = "KRaftVersion"
		j.num("version", int64(r.int16()))
		j.num("kRaftVersion", int64(r.int16()))
	default:
		return "", false
	}
	r.taggedFields()
	if r.err != nil {
		return "", false
	}
	return " " + name + " " + j.String(), true
}

// appendContent adds " key: ... payload: ..." as Kafka's DecoderMessageParser
// (StringDecoder) or OffsetsMessageParser prints them.
func (ld *logDump) appendContent(line *strings.Builder, prefix string, offset int64, key, value []byte) {
	var k, v string
	hasK, hasV := key != nil, value != nil
	switch {
	case ld.d.opts.offsetsDecoder:
		var err error
		k, v, hasV, err = decodeOffsetsRecord(offset, key, value)
		hasK = true
		if err != nil {
			ld.d.problem(ld.file, "offset %d: %v", offset, err)
			return
		}
	case ld.d.opts.txnDecoder:
		// TransactionLogMessageParser (TransactionLog.formatRecordKeyAndValue),
		// which throws on a record it cannot read: reported here, the dump
		// goes on.
		var err error
		k, v, hasV, err = kafkalog.FormatTxnLogRecord(key, value)
		hasK = true
		if err != nil {
			ld.d.problem(ld.file, "offset %d: %v", offset, err)
			return
		}
	default:
		k, v = javaString(key), javaString(value)
	}
	if hasK {
		line.WriteString(prefix + "key: " + k)
	}
	if hasV {
		line.WriteString(" payload: " + v)
	}
}

// recordsLegacy prints the messages inside a legacy entry (the inner messages of
// a compressed wrapper, or the message itself).
func (ld *logDump) recordsLegacy(e *kafkalog.LogEntry) {
	outer := e.Legacy
	inner, err := kafkalog.DecompressLegacy(&outer, nil, 0)
	if err != nil {
		ld.d.problem(ld.file, "%v", atPosition(err, e.Pos))
		return
	}
	for i := range inner {
		m := &inner[i]
		ld.checkConsecutive(m.Offset)
		valid := legacyCRCValid(m)
		var line strings.Builder
		prefix := "| "
		if !ld.d.opts.skipMetadata {
			// Kafka's format string has a stray "}" after the crc; kept for diffing.
			fmt.Fprintf(&line, "| offset: %d %s: %d keySize: %d valueSize: %d isValid: %t crc: %d}",
				m.Offset, outer.TimestampType(), m.Timestamp, bytesSize(m.Key), bytesSize(m.Value), valid, m.CRC)
			prefix = " "
		}
		if ld.d.opts.printData {
			ld.appendContent(&line, prefix, m.Offset, m.Key, m.Value)
		}
		fmt.Fprintln(ld.d.out, line.String())
	}
}

// legacyCRCValid re-encodes m and compares the CRC with the stored one.
func legacyCRCValid(m *kafkalog.LegacyMessage) bool {
	c := *m
	b := c.AppendTo(nil)
	if len(b) < 16+1 {
		return false
	}
	return uint32(b[12])<<24|uint32(b[13])<<16|uint32(b[14])<<8|uint32(b[15]) == m.CRC
}

func bytesSize(b []byte) int {
	if b == nil {
		return -1
	}
	return len(b)
}

func recordSequence(h *kafkalog.BatchHeader, r *kafkalog.Record) int32 {
	if h.BaseSequence == kafkalog.NoSequence {
		return kafkalog.NoSequence
	}
	return kafkalog.IncrementSequence(h.BaseSequence, r.OffsetDelta)
}

func headerKeys(r *kafkalog.Record) string {
	keys := make([]string, len(r.Headers))
	for i, h := range r.Headers {
		keys[i] = javaString(h.Key)
	}
	return strings.Join(keys, ",")
}

// javaString decodes b as Java's new String(b, UTF_8) does: each malformed byte
// becomes U+FFFD.
func javaString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			s.WriteRune(utf8.RuneError)
			b = b[1:]
			continue
		}
		s.WriteRune(r)
		b = b[n:]
	}
	return s.String()
}
