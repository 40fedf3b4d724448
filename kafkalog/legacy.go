package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Legacy messages, magic 0 (Kafka 0.8-0.9) and magic 1 (0.10, adds a timestamp),
// as LegacyRecord.java reads them. Each message stands alone in the log:
//
//	offset  size  field
//	     0     8  offset        the message's offset (a compressed wrapper: its LAST inner offset)
//	     8     4  size          bytes after this field
//	    12     4  crc           CRC-32/IEEE (not Castagnoli) of bytes [16, end)
//	    16     1  magic         0 or 1
//	    17     1  attributes    bits 0-2 compression (none, gzip, snappy, lz4), bit 3 timestamp type (v1)
//	    18     8  timestamp     magic 1 only
//	     …     4  keyLength     -1 = null
//	     …     …  key
//	     …     4  valueLength   -1 = null
//	     …     …  value
//
// A compressed message is a "wrapper": its value is one compressed stream of
// inner messages, each laid out as above. In a magic 1 wrapper the inner offsets
// are relative (0, 1, ...): the absolute offset of an inner message is the
// wrapper's offset - the last inner relative offset + its own relative offset.
// Under LogAppendTime every inner message takes the wrapper's timestamp.
// This package reads legacy messages (so old data directories can be dumped) and
// can write them for tests; it never appends them to a log.

const (
	// MagicV0 is the magic byte of the original message format.
	MagicV0 = 0
	// MagicV1 is the magic byte of the message format with timestamps (KIP-32).
	MagicV1 = 1
	// LegacyOverheadV0 is the smallest size field of a magic 0 message
	// (LegacyRecord.RECORD_OVERHEAD_V0: crc, magic, attributes, key and value lengths).
	LegacyOverheadV0 = 14
	// LegacyOverheadV1 is the smallest size field of a magic 1 message (adds the timestamp).
	LegacyOverheadV1 = 22

	legacyTimestampTypeMask = 0x08
)

// LegacyMessage is one magic 0 or 1 message. After reading, Key and Value alias
// the input.
type LegacyMessage struct {
	// Offset is the message's offset; for a compressed wrapper, the offset of its
	// last inner message.
	Offset int64
	// MessageSize is the size field: bytes after it (the message takes
	// LogOverhead + MessageSize bytes).
	MessageSize int32
	// CRC is the stored CRC-32/IEEE of the bytes from Magic to the end.
	CRC uint32
	// Magic is 0 or 1.
	Magic int8
	// Attributes hold the codec (bits 0-2) and, for magic 1, the timestamp type (bit 3).
	Attributes int8
	// Timestamp is the message's timestamp; NoTimestamp (-1) for magic 0.
	Timestamp int64
	// Key is nil for a null key.
	Key []byte
	// Value is nil for a null value; for a wrapper, the compressed inner messages.
	Value []byte
}

// Size returns the bytes the message takes in the log: LogOverhead + MessageSize.
func (m *LegacyMessage) Size() int64 { return LogOverhead + int64(m.MessageSize) }

// Compression returns the message's codec; a non-none codec makes it a wrapper.
func (m *LegacyMessage) Compression() Compression { return Compression(m.Attributes & 0x07) }

// TimestampType returns NoTimestampType for magic 0, otherwise CreateTime or
// LogAppendTime from attribute bit 3.
func (m *LegacyMessage) TimestampType() TimestampType {
	if m.Magic == MagicV0 {
		return NoTimestampType
	}
	if m.Attributes&legacyTimestampTypeMask != 0 {
		return LogAppendTime
	}
	return CreateTime
}

func legacyHeaderLen(magic int8) int {
	if magic == MagicV0 {
		return LegacyOverheadV0
	}
	return LegacyOverheadV1
}

// AppendTo appends the message to dst, computing its size and CRC (and setting
// m.MessageSize and m.CRC to them). Magic must be 0 or 1; Timestamp is not
// written for magic 0.
func (m *LegacyMessage) AppendTo(dst []byte) []byte {
	start := len(dst)
	dst = binary.BigEndian.AppendUint64(dst, uint64(m.Offset))
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0) // size and crc, backpatched
	dst = append(dst, byte(m.Magic), byte(m.Attributes))
	if m.Magic != MagicV0 {
		dst = binary.BigEndian.AppendUint64(dst, uint64(m.Timestamp))
	}
	dst = appendLegacyBytes(dst, m.Key)
	dst = appendLegacyBytes(dst, m.Value)
	m.MessageSize = int32(len(dst) - start - LogOverhead)
	m.CRC = crc32.ChecksumIEEE(dst[start+posMagic:])
	binary.BigEndian.PutUint32(dst[start+posLength:], uint32(m.MessageSize))
	binary.BigEndian.PutUint32(dst[start+LogOverhead:], m.CRC)
	return dst
}

func appendLegacyBytes(dst, b []byte) []byte {
	if b == nil {
		return binary.BigEndian.AppendUint32(dst, 0xffffffff)
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// ReadLegacyMessage reads the magic 0 or 1 message at the start of src, checks
// its CRC-32/IEEE and returns it with the number of bytes it took.
func ReadLegacyMessage(src []byte) (LegacyMessage, int, error) {
	m, n, err := parseLegacy(src)
	if err != nil {
		return m, 0, err
	}
	if err := m.checkCRC(src[:n]); err != nil {
		return m, 0, err
	}
	return m, n, nil
}

func (m *LegacyMessage) checkCRC(raw []byte) error {
	if crc := crc32.ChecksumIEEE(raw[posMagic:]); crc != m.CRC {
		return batchErr(m.Offset, 0, "crc", fmt.Errorf("%w: stored crc 0x%08x, computed 0x%08x (CRC-32/IEEE)", ErrCorruptBatch, m.CRC, crc))
	}
	return nil
}

// parseLegacy reads the message at the start of src without checking its CRC.
func parseLegacy(src []byte) (LegacyMessage, int, error) {
	var m LegacyMessage
	if len(src) < HeaderLenUpToMagic {
		return m, 0, batchErr(-1, 0, "header", ErrTruncated)
	}
	m.Offset = int64(binary.BigEndian.Uint64(src))
	m.MessageSize = int32(binary.BigEndian.Uint32(src[posLength:]))
	m.Magic = int8(src[posMagic])
	if m.Magic != MagicV0 && m.Magic != MagicV1 {
		return m, 0, batchErr(m.Offset, 0, "magic", fmt.Errorf("%w: %d in a legacy message", ErrUnknownMagic, m.Magic))
	}
	if int(m.MessageSize) < legacyHeaderLen(m.Magic) {
		return m, 0, batchErr(m.Offset, 0, "size", fmt.Errorf("%w: magic %d message size %d below %d", ErrCorruptBatch, m.Magic, m.MessageSize, legacyHeaderLen(m.Magic)))
	}
	n := int(m.Size())
	if n > len(src) {
		return m, 0, batchErr(m.Offset, 0, "size", fmt.Errorf("%w: message of %d bytes, %d present", ErrTruncated, n, len(src)))
	}
	m.CRC = binary.BigEndian.Uint32(src[LogOverhead:])
	m.Attributes = int8(src[posMagic+1])
	p := posMagic + 2
	m.Timestamp = NoTimestamp
	if m.Magic == MagicV1 {
		m.Timestamp = int64(binary.BigEndian.Uint64(src[p:]))
		p += 8
	}
	var err error
	if m.Key, p, err = legacyBytes(src[:n], p, "key"); err != nil {
		return m, 0, batchErr(m.Offset, 0, "keyLength", err)
	}
	if m.Value, _, err = legacyBytes(src[:n], p, "value"); err != nil {
		return m, 0, batchErr(m.Offset, 0, "valueLength", err)
	}
	return m, n, nil
}

// legacyBytes reads an int32 length at p and that many bytes (-1 = nil). Bytes
// after the value are ignored, as LegacyRecord does.
func legacyBytes(msg []byte, p int, field string) ([]byte, int, error) {
	if len(msg)-p < 4 {
		return nil, p, fmt.Errorf("%w: %s length runs past the message", ErrInvalidRecord, field)
	}
	l := int32(binary.BigEndian.Uint32(msg[p:]))
	p += 4
	if l == -1 {
		return nil, p, nil
	}
	if l < 0 || int(l) > len(msg)-p {
		return nil, p, fmt.Errorf("%w: %s length %d with %d bytes left in the message", ErrInvalidRecord, field, l, len(msg)-p)
	}
	return msg[p : p+int(l) : p+int(l)], p + int(l), nil
}

// errNoInner is returned for a wrapper whose stream holds no message.
var errNoInner = errors.New("compressed wrapper holds no inner message")

// DecompressLegacy returns the inner messages of the compressed wrapper m, with
// absolute offsets and, under LogAppendTime, the wrapper's timestamp, appended
// to dst (Kafka's AbstractLegacyRecordBatch deep iteration). Inner keys and
// values alias a fresh buffer of at most limit bytes (0 =
// DefaultMaxDecompressedBytes). Inner CRCs are not checked: the wrapper's CRC
// covers them. It fails with ErrInvalidRecord for a null wrapper value, an
// empty stream, an inner message that is itself compressed or of another magic.
// Magic 0 lz4 wrappers, written with Kafka's broken pre-0.10 frame checksum, are
// not supported.
func DecompressLegacy(m *LegacyMessage, dst []LegacyMessage, limit int) ([]LegacyMessage, error) {
	c := m.Compression()
	if c == CompressionNone {
		return append(dst, *m), nil
	}
	if m.Value == nil {
		return dst, batchErr(m.Offset, 0, "value", fmt.Errorf("%w: compressed wrapper with a null value", ErrInvalidRecord))
	}
	if c > CompressionLZ4 {
		return dst, batchErr(m.Offset, 0, "attributes", fmt.Errorf("%w: %s in a magic %d message", ErrUnknownCompression, c, m.Magic))
	}
	if limit <= 0 {
		limit = DefaultMaxDecompressedBytes
	}
	var d decompressors
	raw, err := d.decompress(c, nil, m.Value, limit)
	if err != nil {
		return dst, batchErr(m.Offset, 0, "value ("+c.String()+")", err)
	}
	start := len(dst)
	for p := 0; p < len(raw); {
		in, n, err := parseLegacy(raw[p:])
		if err != nil {
			var be *BatchError
			errors.As(err, &be)
			return dst[:start], batchErr(m.Offset, 0, fmt.Sprintf("inner message %d at %d: %s", len(dst)-start, p, be.Field), be.Err)
		}
		if in.Magic != m.Magic || in.Compression() != CompressionNone {
			return dst[:start], batchErr(m.Offset, 0, fmt.Sprintf("inner message %d", len(dst)-start), fmt.Errorf("%w: magic %d %s inside a magic %d wrapper", ErrInvalidRecord, in.Magic, in.Compression(), m.Magic))
		}
		dst = append(dst, in)
		p += n
	}
	inner := dst[start:]
	if len(inner) == 0 {
		return dst, batchErr(m.Offset, 0, "value", fmt.Errorf("%w: %w", ErrInvalidRecord, errNoInner))
	}
	if m.Magic == MagicV1 {
		base := m.Offset - inner[len(inner)-1].Offset
		for i := range inner {
			inner[i].Offset += base
			if m.TimestampType() == LogAppendTime {
				inner[i].Timestamp = m.Timestamp
				inner[i].Attributes |= legacyTimestampTypeMask
			}
		}
	}
	return dst, nil
}
