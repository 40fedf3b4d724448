package kafkalog

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"slices"
)

// Sizes and positions of the v2 batch header; part of the format
// (DefaultRecordBatch.java).
const (
	// LogOverhead is the baseOffset and length fields that precede every batch
	// (Records.LOG_OVERHEAD): a batch takes LogOverhead + its length field bytes.
	LogOverhead = 12
	// BatchHeaderLen is the size of a v2 batch header (RECORD_BATCH_OVERHEAD).
	BatchHeaderLen = 61
	// MinBatchLength is the smallest valid length field of a v2 batch.
	MinBatchLength = BatchHeaderLen - LogOverhead
	// HeaderLenUpToMagic is how many bytes a reader needs to tell the format
	// (magic) and the size of any batch, v0, v1 or v2.
	HeaderLenUpToMagic = 17
	// MagicV2 is the magic byte of record batch v2 (Kafka 0.11+).
	MagicV2 = 2

	posLength          = 8
	posLeaderEpoch     = 12
	posMagic           = 16
	posCRC             = 17
	posAttributes      = 21
	posLastOffsetDelta = 23
	posBaseTimestamp   = 27
	posMaxTimestamp    = 35
	posProducerID      = 43
	posProducerEpoch   = 51
	posBaseSequence    = 53
	posRecordsCount    = 57
)

// Defaults of the header fields (RecordBatch.java).
const (
	NoTimestamp            = -1
	NoProducerID           = -1
	NoProducerEpoch        = -1
	NoSequence             = -1
	NoPartitionLeaderEpoch = -1
)

// BatchHeader is the 61-byte header of a record batch v2. Multi-byte fields are
// big-endian on disk. The CRC covers Attributes through the end of the records,
// so a broker can rewrite BaseOffset and PartitionLeaderEpoch without recomputing it.
type BatchHeader struct {
	// BaseOffset is the offset of the first record; records carry deltas from it.
	// A producer sends 0; the leader assigns it on append.
	BaseOffset int64
	// BatchLength is the number of bytes after this field (batch size - 12).
	BatchLength int32
	// PartitionLeaderEpoch is the leader epoch of the leader that appended the batch.
	// A producer sends -1; the broker stamps it. Not covered by the CRC.
	PartitionLeaderEpoch int32
	// Magic is the format version: 2.
	Magic int8
	// CRC is the CRC-32C of the bytes from Attributes to the end of the batch.
	CRC uint32
	// Attributes hold compression, timestamp type, transactional, control and
	// delete-horizon bits.
	Attributes Attributes
	// LastOffsetDelta is the last record's offset minus BaseOffset (kept by
	// compaction even when the last records are gone).
	LastOffsetDelta int32
	// BaseTimestamp is the first record's timestamp, or the delete horizon when
	// Attributes.HasDeleteHorizon.
	BaseTimestamp int64
	// MaxTimestamp is the largest record timestamp (CreateTime) or the broker's
	// append time (LogAppendTime).
	MaxTimestamp int64
	// ProducerID is the idempotent or transactional producer's id; -1 if none.
	ProducerID int64
	// ProducerEpoch is the producer's epoch; -1 if none.
	ProducerEpoch int16
	// BaseSequence is the sequence number of the first record; -1 if none.
	BaseSequence int32
	// NumRecords is the record count (Kafka's recordsCount); never negative.
	NumRecords int32
}

// Size returns the bytes the batch takes on disk: LogOverhead + BatchLength.
func (h *BatchHeader) Size() int64 { return LogOverhead + int64(h.BatchLength) }

// LastOffset returns BaseOffset + LastOffsetDelta.
func (h *BatchHeader) LastOffset() int64 { return h.BaseOffset + int64(h.LastOffsetDelta) }

// NextOffset returns LastOffset + 1, the offset a following batch starts at.
func (h *BatchHeader) NextOffset() int64 { return h.LastOffset() + 1 }

// LastSequence returns the sequence number of the last record, wrapping at
// MaxInt32 as Kafka does, or -1 if the batch has no sequence.
func (h *BatchHeader) LastSequence() int32 {
	if h.BaseSequence == NoSequence {
		return NoSequence
	}
	return IncrementSequence(h.BaseSequence, h.LastOffsetDelta)
}

// IncrementSequence adds inc to seq, wrapping past MaxInt32 to 0
// (DefaultRecordBatch.incrementSequence).
func IncrementSequence(seq, inc int32) int32 {
	if seq > 1<<31-1-inc {
		return inc - (1<<31 - 1 - seq) - 1
	}
	return seq + inc
}

// DecrementSequence subtracts dec from seq, wrapping below 0 to MaxInt32.
func DecrementSequence(seq, dec int32) int32 {
	if seq < dec {
		return 1<<31 - 1 - (dec - seq) + 1
	}
	return seq - dec
}

// RecordBatch is a v2 batch with its records decoded.
type RecordBatch struct {
	BatchHeader
	// Records are the batch's records. After decoding, keys, values and headers
	// alias the input (or the Decoder's decompression buffer).
	Records []Record
}

// Offset returns the offset of r, a record of b.
func (b *BatchHeader) Offset(r *Record) int64 { return b.BaseOffset + int64(r.OffsetDelta) }

// Sequence returns the producer sequence number of r, a record of b:
// BaseSequence + OffsetDelta wrapping at MaxInt32, or -1 when the batch has no
// sequence (DefaultRecord.sequence).
func (b *BatchHeader) Sequence(r *Record) int32 {
	if b.BaseSequence < 0 {
		return NoSequence
	}
	return IncrementSequence(b.BaseSequence, r.OffsetDelta)
}

// Timestamp returns the timestamp of r, a record of b: the batch's MaxTimestamp
// under LogAppendTime, BaseTimestamp + TimestampDelta otherwise.
func (b *BatchHeader) Timestamp(r *Record) int64 {
	if b.Attributes.TimestampType() == LogAppendTime {
		return b.MaxTimestamp
	}
	return b.BaseTimestamp + r.TimestampDelta
}

// AppendTo appends the batch in the v2 format to dst and returns the extended
// buffer. It writes Magic 2, NumRecords = len(Records), and the length and CRC it
// computes (reserve and backpatch); every other header field is written as set.
// Records are compressed with Attributes.Compression(). Unsupported codec bits
// are a caller bug and panic.
func (b *RecordBatch) AppendTo(dst []byte) []byte {
	start := len(dst)
	dst = slices.Grow(dst, BatchHeaderLen)
	h := dst[start : start+BatchHeaderLen]
	binary.BigEndian.PutUint64(h, uint64(b.BaseOffset))
	// length (8) and crc (17) are backpatched below
	binary.BigEndian.PutUint32(h[posLeaderEpoch:], uint32(b.PartitionLeaderEpoch))
	h[posMagic] = MagicV2
	binary.BigEndian.PutUint16(h[posAttributes:], uint16(b.Attributes))
	binary.BigEndian.PutUint32(h[posLastOffsetDelta:], uint32(b.LastOffsetDelta))
	binary.BigEndian.PutUint64(h[posBaseTimestamp:], uint64(b.BaseTimestamp))
	binary.BigEndian.PutUint64(h[posMaxTimestamp:], uint64(b.MaxTimestamp))
	binary.BigEndian.PutUint64(h[posProducerID:], uint64(b.ProducerID))
	binary.BigEndian.PutUint16(h[posProducerEpoch:], uint16(b.ProducerEpoch))
	binary.BigEndian.PutUint32(h[posBaseSequence:], uint32(b.BaseSequence))
	binary.BigEndian.PutUint32(h[posRecordsCount:], uint32(len(b.Records)))
	dst = dst[:start+BatchHeaderLen]
	if c := b.Attributes.Compression(); c == CompressionNone {
		dst = appendRecords(dst, b.Records)
	} else {
		dst = appendCompressedRecords(dst, c, b.Records)
	}
	binary.BigEndian.PutUint32(dst[start+posLength:], uint32(len(dst)-start-LogOverhead))
	binary.BigEndian.PutUint32(dst[start+posCRC:], CRC32C(dst[start+posAttributes:]))
	return dst
}

// PeekBatch reads the size and magic of the batch (any format) that starts at
// src, from its first HeaderLenUpToMagic bytes, without checking anything else.
// The size includes LogOverhead. It fails with ErrTruncated when fewer than 17
// bytes are present, and ErrCorruptBatch when the length field is below 14
// (Kafka's smallest legal record, LegacyRecord.RECORD_OVERHEAD_V0).
func PeekBatch(src []byte) (size int64, magic int8, err error) {
	if len(src) < HeaderLenUpToMagic {
		return 0, 0, batchErr(-1, 0, "header", ErrTruncated)
	}
	base := int64(binary.BigEndian.Uint64(src))
	length := int32(binary.BigEndian.Uint32(src[posLength:]))
	if length < 14 {
		return 0, 0, batchErr(base, 0, "length", fmt.Errorf("%w: length %d below 14", ErrCorruptBatch, length))
	}
	return LogOverhead + int64(length), int8(src[posMagic]), nil
}

// ReadBatchHeader parses the header of the v2 batch at the start of src. It
// checks that the header is complete, the magic is 2 and the length and record
// count are sane, but not the CRC and not that the whole batch is present.
func ReadBatchHeader(src []byte) (BatchHeader, error) {
	var h BatchHeader
	err := readBatchHeader(src, &h)
	return h, err
}

// readBatchHeader is ReadBatchHeader into *h, so that the decoder fills a
// reused RecordBatch without copying the header around.
func readBatchHeader(src []byte, h *BatchHeader) error {
	if len(src) < BatchHeaderLen {
		return shortHeader(src, h)
	}
	_ = src[BatchHeaderLen-1]
	h.BaseOffset = int64(binary.BigEndian.Uint64(src))
	h.BatchLength = int32(binary.BigEndian.Uint32(src[posLength:]))
	h.PartitionLeaderEpoch = int32(binary.BigEndian.Uint32(src[posLeaderEpoch:]))
	h.Magic = int8(src[posMagic])
	h.CRC = binary.BigEndian.Uint32(src[posCRC:])
	h.Attributes = Attributes(binary.BigEndian.Uint16(src[posAttributes:]))
	h.LastOffsetDelta = int32(binary.BigEndian.Uint32(src[posLastOffsetDelta:]))
	h.BaseTimestamp = int64(binary.BigEndian.Uint64(src[posBaseTimestamp:]))
	h.MaxTimestamp = int64(binary.BigEndian.Uint64(src[posMaxTimestamp:]))
	h.ProducerID = int64(binary.BigEndian.Uint64(src[posProducerID:]))
	h.ProducerEpoch = int16(binary.BigEndian.Uint16(src[posProducerEpoch:]))
	h.BaseSequence = int32(binary.BigEndian.Uint32(src[posBaseSequence:]))
	h.NumRecords = int32(binary.BigEndian.Uint32(src[posRecordsCount:]))
	if h.Magic != MagicV2 || h.BatchLength < MinBatchLength || h.NumRecords < 0 {
		return badHeader(h)
	}
	return nil
}

func shortHeader(src []byte, h *BatchHeader) error {
	*h = BatchHeader{}
	if len(src) >= 8 {
		h.BaseOffset = int64(binary.BigEndian.Uint64(src))
		return batchErr(h.BaseOffset, 0, "header", ErrTruncated)
	}
	return batchErr(-1, 0, "header", ErrTruncated)
}

func badHeader(h *BatchHeader) error {
	switch {
	case h.Magic != MagicV2:
		return batchErr(h.BaseOffset, 0, "magic", fmt.Errorf("%w: %d", ErrUnknownMagic, h.Magic))
	case h.BatchLength < MinBatchLength:
		return batchErr(h.BaseOffset, 0, "length", fmt.Errorf("%w: length %d below %d", ErrCorruptBatch, h.BatchLength, MinBatchLength))
	}
	return batchErr(h.BaseOffset, 0, "recordsCount", fmt.Errorf("%w: negative record count %d", ErrCorruptBatch, h.NumRecords))
}

// CheckBatch validates the v2 batch at the start of src the way Kafka's
// recovery does (DefaultRecordBatch.ensureValid): header, length within src, and
// CRC. It does not decode records. It returns the header and the batch size.
func CheckBatch(src []byte) (BatchHeader, int, error) {
	var h BatchHeader
	n, err := checkBatch(src, &h, true)
	return h, n, err
}

// checkBatch reads the header of the batch at the start of src into h and
// checks that the batch is whole in src and, with crc, that its CRC holds.
func checkBatch(src []byte, h *BatchHeader, crc bool) (int, error) {
	if err := readBatchHeader(src, h); err != nil {
		return 0, err
	}
	size := h.Size()
	if size > int64(len(src)) {
		return 0, batchErr(h.BaseOffset, 0, "length", fmt.Errorf("%w: batch of %d bytes, %d present", ErrTruncated, size, len(src)))
	}
	if !crc {
		return int(size), nil
	}
	if sum := CRC32C(src[posAttributes:size]); sum != h.CRC {
		return 0, batchErr(h.BaseOffset, 0, "crc", fmt.Errorf("%w: stored crc 0x%08x, computed 0x%08x", ErrCorruptBatch, h.CRC, sum))
	}
	return int(size), nil
}

// ReadBatch decodes the v2 batch at the start of src: it checks the header, the
// length and the CRC, decompresses and decodes every record, and returns the
// batch and the number of bytes it took. Keys and values alias src (or a fresh
// decompression buffer). For a loop over many batches, a Decoder reuses memory.
func ReadBatch(src []byte) (RecordBatch, int, error) {
	var d Decoder
	var b RecordBatch
	n, err := d.Decode(src, &b)
	return b, n, err
}

// Decoder decodes batches, reusing its buffers (record and header slices, the
// decompression buffer) from one call to the next, so that a steady stream of
// batches decodes without allocating. The zero value is ready to use. A Decoder
// is not safe for concurrent use.
type Decoder struct {
	// MaxDecompressedBytes caps the size of a decompressed records section
	// (0 means DefaultMaxDecompressedBytes).
	MaxDecompressedBytes int

	buf     []byte
	headers []Header
	scratch []Record // Scan's one record
	codecs  decompressors
	// previewBuf reads a compressed records section for Preview.
	previewBuf *bufio.Reader
	// skipCRC decodes a batch whatever its CRC, as Kafka's log cleaner
	// reads batches (see decodeTrusting).
	skipCRC bool
}

// DefaultMaxDecompressedBytes caps decompression when the caller sets no limit:
// 64 MiB, far above Kafka's default max.message.bytes (1 MiB + 12) yet small
// enough that a crafted "zip bomb" cannot exhaust memory.
const DefaultMaxDecompressedBytes = 64 << 20

// Trim lets go of the Decoder's decompression memory when it has grown past
// max bytes (its buffer, and the zstd decoder whose window grew with it):
// a Decoder kept for reuse (in a pool, for a connection's next request)
// then holds no more than max for the one large batch it met. Keys,
// values and headers of the last batch decoded may alias that buffer:
// Trim only after they are done with.
func (d *Decoder) Trim(max int) {
	if cap(d.buf) > max {
		d.buf = nil
		clear(d.scratch[:cap(d.scratch)]) // Scan's record, and its headers, point into it
		clear(d.headers[:cap(d.headers)])
		if d.codecs.zstd != nil {
			d.codecs.zstd.Close()
			d.codecs.zstd = nil
		}
	}
}

// Decode decodes the v2 batch at the start of src into b, reusing b.Records and
// the Decoder's buffers. Keys, values and headers stay valid until the next call
// of Decode on this Decoder (and as long as src is unchanged). It returns the
// number of bytes the batch took. On error b.BatchHeader holds what was read of
// the header and b.Records is unspecified. Legacy (magic 0/1) entries are
// ErrUnknownMagic here: read them with BatchIter and DecompressLegacy.
func (d *Decoder) Decode(src []byte, b *RecordBatch) (int, error) {
	payload, n, err := d.payload(src, &b.BatchHeader)
	if err != nil {
		return 0, err
	}
	b.Records, d.headers, err = decodeRecords(payload, b.NumRecords, b.Records[:0], d.headers[:0], nil)
	if err != nil {
		return 0, batchErr(b.BaseOffset, 0, err.(*recordError).field, err.(*recordError).err)
	}
	return n, nil
}

// Scan is Decode without keeping the records: it checks and decodes the v2
// batch at the start of src as Decode does, with the same error for the
// same bytes, and calls visit with each record in turn, i from 0, in one
// Record it reuses (valid during the call only: its key, value and headers
// alias src or the Decoder's buffer). A validator that reads every record
// and keeps none, as Kafka's LogValidator reads a client's batch, scans
// rather than decodes: nothing is written per record but that one Record.
// It returns the batch's header and the number of bytes it took.
func (d *Decoder) Scan(src []byte, visit func(i int, r *Record)) (BatchHeader, int, error) {
	var h BatchHeader
	payload, n, err := d.payload(src, &h)
	if err != nil {
		return h, 0, err
	}
	d.scratch, d.headers, err = decodeRecords(payload, h.NumRecords, d.scratch[:0], d.headers[:0], visit)
	if err != nil {
		return h, 0, batchErr(h.BaseOffset, 0, err.(*recordError).field, err.(*recordError).err)
	}
	return h, n, nil
}

// payload checks the batch at the start of src, reading its header into h,
// and returns its records section (decompressed into d's buffer) and the
// batch's size.
func (d *Decoder) payload(src []byte, h *BatchHeader) ([]byte, int, error) {
	n, err := checkBatch(src, h, !d.skipCRC)
	if err != nil {
		return nil, 0, err
	}
	payload := src[BatchHeaderLen:n]
	if c := h.Attributes.Compression(); c != CompressionNone {
		limit := d.MaxDecompressedBytes
		if limit <= 0 {
			limit = DefaultMaxDecompressedBytes
		}
		d.buf, err = d.codecs.decompress(c, d.buf[:0], payload, limit)
		if err != nil {
			return nil, 0, batchErr(h.BaseOffset, 0, "records ("+c.String()+")", err)
		}
		payload = d.buf
	}
	return payload, n, nil
}

type recordError struct {
	field string
	err   error
}

func (e *recordError) Error() string { return e.field + ": " + e.err.Error() }

// decodeRecords parses count records from p, which must hold exactly them,
// appending them to recs; with visit, it hands each to visit instead, in
// recs[0] (and its headers in hdrs from 0), which it reuses.
func decodeRecords(p []byte, count int32, recs []Record, hdrs []Header, visit func(int, *Record)) ([]Record, []Header, error) {
	// Grow once when the count is plausible for the bytes present; a lying count
	// never sizes an allocation beyond what the bytes could hold.
	if visit == nil && int(count) > cap(recs) && int(count) <= len(p)/minRecordLen {
		recs = make([]Record, 0, count)
	}
	pos := 0
	for i := int32(0); i < count; i++ {
		if pos == len(p) {
			return recs, hdrs, &recordError{fmt.Sprintf("record %d", i), fmt.Errorf("%w: %d records declared, %d present", ErrInvalidRecord, count, i)}
		}
		// Every field of the record is overwritten below, so reuse without zeroing.
		if visit != nil {
			recs, hdrs = recs[:0], hdrs[:0]
		}
		if len(recs) < cap(recs) {
			recs = recs[:len(recs)+1]
		} else {
			recs = append(recs, Record{})
		}
		r := &recs[len(recs)-1]
		next, grown := decodeRecordFast(p, pos, r, hdrs)
		if next < 0 {
			// Re-read with the careful reader: it says what broke.
			rr := recordReader{p: p, pos: pos}
			grown = rr.next(r, hdrs)
			if rr.err != nil {
				return recs, grown, &recordError{fmt.Sprintf("record %d: %s", i, rr.field), rr.err}
			}
			next = rr.pos
		}
		hdrs, pos = grown, next
		if visit != nil {
			visit(int(i), r)
		}
	}
	if pos != len(p) {
		return recs, hdrs, &recordError{"records", fmt.Errorf("%w: %d bytes remain after %d declared records", ErrInvalidRecord, len(p)-pos, count)}
	}
	return recs, hdrs, nil
}
