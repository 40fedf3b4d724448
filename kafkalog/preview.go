package kafkalog

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// PreviewRecord is a record as [Decoder.Preview] reads it: its key and
// value cut to a preview length, with the sizes they have whole. Its
// headers are checked and skipped, not kept.
type PreviewRecord struct {
	Attributes     int8
	TimestampDelta int64
	OffsetDelta    int32
	// Key and Value are the first bytes of the record's key and value, at
	// most the preview length; nil is null, as in [Record]. The caller may
	// keep them as long as the batch's bytes are unchanged: they alias
	// those of an uncompressed batch, and are memory of their own (never
	// the Decoder's) for a compressed one.
	Key, Value []byte
	// KeySize and ValueSize are the whole key's and value's lengths; -1
	// is null.
	KeySize, ValueSize int
}

// Preview checks the v2 batch at the start of src as Decode does (its
// header and CRC) and reads its records from the first on, streaming its
// records section through the decompressor: it calls visit with each
// record, keys and values cut to limit bytes, until visit returns false or
// the records run out, and decompresses no further than the record visit
// stopped at. A record's bytes past limit are decompressed and dropped,
// never held: a batch of one 60 MiB gzip value (60 KB stored) is previewed
// from its first kilobytes, and one of many such values costs the time to
// decompress them and the memory of a few kilobytes. Decode gives the
// same records whole. It returns the batch's header. A records section
// that does not parse is a *BatchError; past MaxDecompressedBytes,
// ErrTooLarge. Raw snappy (one block, not xerial framing) has no stream:
// it is decompressed whole, within MaxDecompressedBytes.
func (d *Decoder) Preview(src []byte, limit int, visit func(i int, r *PreviewRecord) bool) (BatchHeader, error) {
	var h BatchHeader
	n, err := checkBatch(src, &h, true)
	if err != nil {
		return h, err
	}
	payload := src[BatchHeaderLen:n]
	max := d.MaxDecompressedBytes
	if max <= 0 {
		max = DefaultMaxDecompressedBytes
	}
	c := h.Attributes.Compression()
	if c == CompressionNone {
		return h, d.previewPlain(payload, h, limit, visit)
	}
	r, done, err := d.stream(c, payload, max)
	if err != nil {
		return h, batchErr(h.BaseOffset, 0, "records ("+c.String()+")", asDecompressError(err))
	}
	defer done()
	if d.previewBuf == nil {
		d.previewBuf = bufio.NewReaderSize(nil, 4<<10)
	}
	d.previewBuf.Reset(codecReader{r, c})
	defer d.previewBuf.Reset(nil)
	ps := previewStream{r: d.previewBuf, left: max}
	var rec PreviewRecord
	for i := int32(0); i < h.NumRecords; i++ {
		if i > 0 {
			if err := ps.finish(); err != nil {
				return h, ps.fail(h, c, i-1, err)
			}
		}
		if err := ps.next(&rec, limit); err != nil {
			return h, ps.fail(h, c, i, err)
		}
		if !visit(int(i), &rec) {
			return h, nil
		}
	}
	if h.NumRecords > 0 {
		if err := ps.finish(); err != nil {
			return h, ps.fail(h, c, h.NumRecords-1, err)
		}
	}
	if _, err := ps.r.ReadByte(); err != io.EOF {
		ps.field = ""
		if err == nil {
			err = fmt.Errorf("%w: bytes remain after %d declared records", ErrInvalidRecord, h.NumRecords)
		}
		return h, ps.fail(h, c, h.NumRecords, err)
	}
	return h, nil
}

// previewPlain is Preview of an uncompressed records section, p: it
// decodes every record in place, as Scan does (nothing to decompress),
// and visits them cut, aliasing p, until visit returns false.
func (d *Decoder) previewPlain(p []byte, h BatchHeader, limit int, visit func(i int, r *PreviewRecord) bool) error {
	cut := func(b []byte) ([]byte, int) {
		if b == nil {
			return nil, -1
		}
		n := min(len(b), limit)
		return b[:n:n], len(b)
	}
	more := true
	var rec PreviewRecord
	var err error
	d.scratch, d.headers, err = decodeRecords(p, h.NumRecords, d.scratch[:0], d.headers[:0], func(i int, r *Record) {
		if !more {
			return
		}
		rec = PreviewRecord{Attributes: r.Attributes, TimestampDelta: r.TimestampDelta, OffsetDelta: r.OffsetDelta}
		rec.Key, rec.KeySize = cut(r.Key)
		rec.Value, rec.ValueSize = cut(r.Value)
		more = visit(i, &rec)
	})
	if err != nil {
		return batchErr(h.BaseOffset, 0, err.(*recordError).field, err.(*recordError).err)
	}
	return nil
}

// asDecompressError makes a codec's refusal ErrDecompress, as Decode does;
// ErrTooLarge stays as it is.
func asDecompressError(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err
	}
	var de *decompressError
	if errors.As(err, &de) {
		return err
	}
	if !errors.Is(err, ErrInvalidRecord) {
		err = fmt.Errorf("%w: %w", ErrInvalidRecord, err)
	}
	return &decompressError{err}
}

// codecReader reads a records section's stream, making the codec's
// errors but io.EOF ErrDecompress.
type codecReader struct {
	r io.Reader
	c Compression
}

func (cr codecReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	if err != nil && err != io.EOF {
		err = asDecompressError(fmt.Errorf("%s: %w", cr.c, err))
	}
	return n, err
}

// stream is a reader of the records section payload compressed with c,
// and what to call when done with it.
func (d *Decoder) stream(c Compression, payload []byte, limit int) (io.Reader, func(), error) {
	nothing := func() {}
	d.codecs.rd.Reset(payload)
	switch c {
	case CompressionNone:
		return &d.codecs.rd, nothing, nil
	case CompressionGzip:
		if d.codecs.gz == nil {
			gz, err := gzip.NewReader(&d.codecs.rd)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: gzip: %w", ErrInvalidRecord, err)
			}
			d.codecs.gz = gz
		} else if err := d.codecs.gz.Reset(&d.codecs.rd); err != nil {
			return nil, nil, fmt.Errorf("%w: gzip: %w", ErrInvalidRecord, err)
		}
		return d.codecs.gz, nothing, nil
	case CompressionLZ4:
		if d.codecs.lz4 == nil {
			d.codecs.lz4 = lz4.NewReader(&d.codecs.rd)
		} else {
			d.codecs.lz4.Reset(&d.codecs.rd)
		}
		return d.codecs.lz4, nothing, nil
	case CompressionZstd:
		z, err := zstd.NewReader(&d.codecs.rd, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(max(limit, zstdMinMemory))))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: zstd: %w", ErrInvalidRecord, err)
		}
		return z, z.Close, nil
	case CompressionSnappy:
		if !bytes.HasPrefix(payload, xerialMagic) {
			out, err := snappyBlock(nil, payload, limit, 0)
			if err != nil {
				return nil, nil, err
			}
			return bytes.NewReader(out), nothing, nil
		}
		return &xerialStream{p: payload, max: limit}, nothing, nil
	}
	return nil, nil, fmt.Errorf("%w: %d", ErrUnknownCompression, int8(c))
}

// xerialStream reads xerial-framed snappy a block at a time.
type xerialStream struct {
	p     []byte
	pos   int
	block []byte
	out   int // bytes given so far
	max   int
	begun bool
}

func (s *xerialStream) Read(b []byte) (int, error) {
	for len(s.block) == 0 {
		if !s.begun {
			if len(s.p) < xerialHeaderLen {
				return 0, fmt.Errorf("%w: snappy: xerial header truncated", ErrInvalidRecord)
			}
			s.pos, s.begun = xerialHeaderLen, true
		}
		p := s.p[s.pos:]
		if len(p) == 0 {
			return 0, io.EOF
		}
		if len(p) < 4 {
			return 0, fmt.Errorf("%w: snappy: xerial block length truncated", ErrInvalidRecord)
		}
		n := binary.BigEndian.Uint32(p)
		if uint64(n) > uint64(len(p)-4) {
			return 0, fmt.Errorf("%w: snappy: xerial block of %d bytes, %d present", ErrInvalidRecord, n, len(p)-4)
		}
		out, err := snappyBlock(s.block[:0], p[4:4+n], s.max-s.out, 0)
		if err != nil {
			return 0, err
		}
		s.block, s.pos = out, s.pos+4+int(n)
	}
	n := copy(b, s.block)
	s.block, s.out = s.block[n:], s.out+n
	return n, nil
}

// previewStream reads records from a records section's stream, counting
// what is left of MaxDecompressedBytes.
type previewStream struct {
	r     *bufio.Reader
	left  int
	field string
	// the record read last: its length, the bytes of its body left unread
	// and, of them, the rest of its value (read on by finish)
	length, body, valueRest int
}

// fail wraps err as Decode's error for the same bytes reads: a
// *BatchError naming the record and the field, or the records section
// when the codec refused it.
func (ps *previewStream) fail(h BatchHeader, c Compression, i int32, err error) error {
	var de *decompressError
	if errors.As(err, &de) || errors.Is(err, ErrTooLarge) {
		return batchErr(h.BaseOffset, 0, "records ("+c.String()+")", err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%w: premature end of records", ErrInvalidRecord)
	}
	field := fmt.Sprintf("record %d", i)
	if ps.field != "" {
		field += ": " + ps.field
	}
	return batchErr(h.BaseOffset, 0, field, err)
}

// take counts n bytes read against what is left.
func (ps *previewStream) take(n int) error {
	if ps.left -= n; ps.left < 0 {
		return fmt.Errorf("%w: records above MaxDecompressedBytes", ErrTooLarge)
	}
	return nil
}

// varlong reads a zigzag varint of at most 64 bits, returning the bytes
// it took.
func (ps *previewStream) varlong(field string) (int64, int, error) {
	ps.field = field
	var u uint64
	for i := 0; i < binary.MaxVarintLen64; i++ {
		b, err := ps.r.ReadByte()
		if err != nil {
			return 0, i, err
		}
		if err := ps.take(1); err != nil {
			return 0, i, err
		}
		u |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return int64(u>>1) ^ -int64(u&1), i + 1, nil
		}
	}
	return 0, binary.MaxVarintLen64, fmt.Errorf("%w: %w", ErrInvalidRecord, ErrVarintOverflow)
}

// varint reads a zigzag varint of at most 32 bits.
func (ps *previewStream) varint(field string) (int32, int, error) {
	v, n, err := ps.varlong(field)
	if err == nil && (n > 5 || v != int64(int32(v))) {
		err = fmt.Errorf("%w: %w", ErrInvalidRecord, ErrVarintOverflow)
	}
	return int32(v), n, err
}

// skip drops n bytes of the stream.
func (ps *previewStream) skip(n int) error {
	if err := ps.take(n); err != nil {
		return err
	}
	_, err := ps.r.Discard(n)
	return err
}

// bytes reads a key or a value of the record, whose body has left bytes
// still unread: its first limit bytes, its size, and the bytes it took
// (all of it, the rest unread).
func (ps *previewStream) bytes(lengthField, field string, limit, left int) ([]byte, int, int, error) {
	l, n, err := ps.varint(lengthField)
	if err != nil {
		return nil, 0, n, err
	}
	switch {
	case l == -1:
		return nil, -1, n, nil
	case l < 0:
		return nil, 0, n, fmt.Errorf("%w: negative length %d", ErrInvalidRecord, l)
	case int(l) > left-n:
		ps.field = field
		return nil, 0, n, fmt.Errorf("%w: length %d runs past the record", ErrInvalidRecord, l)
	}
	ps.field = field
	b := make([]byte, min(int(l), limit))
	if err := ps.take(len(b)); err != nil {
		return nil, 0, n, err
	}
	if _, err := io.ReadFull(ps.r, b); err != nil {
		return nil, 0, n, err
	}
	return b, int(l), n + int(l), nil
}

// next reads one record into r up to its value's first limit bytes, its
// key cut to limit bytes (finish reads the rest).
func (ps *previewStream) next(r *PreviewRecord, limit int) error {
	ps.field = ""
	length, _, err := ps.varint("length")
	if err != nil {
		return err
	}
	if length <= 0 {
		ps.field = "attributes"
		if length < 0 {
			ps.field = "length"
		}
		return fmt.Errorf("%w: record length %d", ErrInvalidRecord, length)
	}
	left := int(length)
	ps.field = "attributes"
	a, err := ps.r.ReadByte()
	if err != nil {
		return err
	}
	if err := ps.take(1); err != nil {
		return err
	}
	r.Attributes, left = int8(a), left-1
	var n int
	if r.TimestampDelta, n, err = ps.varlong("timestampDelta"); err != nil {
		return err
	}
	left -= n
	if r.OffsetDelta, n, err = ps.varint("offsetDelta"); err != nil {
		return err
	}
	left -= n
	if r.Key, r.KeySize, n, err = ps.bytes("keyLength", "key", limit, left); err != nil {
		return err
	}
	left -= n
	if err := ps.skip(max(r.KeySize-len(r.Key), 0)); err != nil {
		return err
	}
	if r.Value, r.ValueSize, n, err = ps.bytes("valueLength", "value", limit, left); err != nil {
		return err
	}
	ps.length, ps.body, ps.valueRest = int(length), left-n, max(r.ValueSize-len(r.Value), 0)
	return nil
}

// finish reads the rest of the record read last: the rest of its value,
// dropped, and its headers, checked and skipped.
func (ps *previewStream) finish() error {
	ps.field = "value"
	if err := ps.skip(ps.valueRest); err != nil {
		return err
	}
	return ps.headers(ps.length, ps.body)
}

// headers reads a record's headers, skipping their keys and values, with
// left bytes of its body (of length bytes) unread: they must take them
// all.
func (ps *previewStream) headers(length, left int) error {
	count, n, err := ps.varint("headersCount")
	if err != nil {
		return err
	}
	left -= n
	if count < 0 || int(count) > left {
		return fmt.Errorf("%w: header count %d", ErrInvalidRecord, count)
	}
	for range count {
		for _, f := range [2][3]string{{"headerKeyLength", "headerKey", ""}, {"headerValueLength", "headerValue", "nullable"}} {
			l, n, err := ps.varint(f[0])
			if err != nil {
				return err
			}
			left -= n
			switch {
			case l == -1 && f[2] != "":
				continue
			case l < 0:
				return fmt.Errorf("%w: negative length %d", ErrInvalidRecord, l)
			case int(l) > left:
				ps.field = f[1]
				return fmt.Errorf("%w: length %d runs past the record", ErrInvalidRecord, l)
			}
			ps.field = f[1]
			if err := ps.skip(int(l)); err != nil {
				return err
			}
			left -= int(l)
		}
	}
	if left != 0 {
		ps.field = "length"
		return fmt.Errorf("%w: record declares %d bytes but uses %d", ErrInvalidRecord, length, length-left)
	}
	return nil
}
