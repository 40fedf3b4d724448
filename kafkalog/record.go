package kafkalog

import (
	"fmt"
	"slices"
)

// Record is one record of a v2 batch. Its offset and timestamp are deltas from
// the batch's BaseOffset and BaseTimestamp (see RecordBatch.Offset and
// RecordBatch.Timestamp). On the wire (inside the batch, possibly compressed):
//
//	length          varint  bytes of the record that follow this field
//	attributes      int8    unused, 0
//	timestampDelta  varlong timestamp - batch BaseTimestamp
//	offsetDelta     varint  offset - batch BaseOffset
//	keyLength       varint  -1 = null key
//	key             bytes
//	valueLength     varint  -1 = null value (a tombstone in a compacted topic)
//	value           bytes
//	headersCount    varint
//	headers         headerKeyLength varint, headerKey, headerValueLength varint (-1 = null), headerValue
type Record struct {
	// Attributes is unused by Kafka and written as 0.
	Attributes int8
	// TimestampDelta is the record's timestamp minus the batch's BaseTimestamp.
	TimestampDelta int64
	// OffsetDelta is the record's offset minus the batch's BaseOffset. Offsets in a
	// batch need not be contiguous after compaction: always use this, never a counter.
	OffsetDelta int32
	// Key is the record key; nil is a null key (keyLength -1), distinct from empty.
	Key []byte
	// Value is the record value; nil is a null value (a tombstone).
	Value []byte
	// Headers are the record headers, in order.
	Headers []Header
}

// Header is a record header. Kafka's header keys are non-null UTF-8 strings; the
// value may be null (nil).
type Header struct {
	Key   []byte
	Value []byte
}

// minRecordLen is the fewest bytes a record can take: length, attributes,
// timestampDelta, offsetDelta, keyLength, valueLength and headersCount, 1 byte each.
const minRecordLen = 7

func bytesLen(b []byte) int {
	if b == nil {
		return 1 // varint -1
	}
	return VarintLen(int32(len(b))) + len(b)
}

// bodyLen is the size of the record after its length field.
func (r *Record) bodyLen() int {
	n := 1 + VarlongLen(r.TimestampDelta) + VarintLen(r.OffsetDelta) +
		bytesLen(r.Key) + bytesLen(r.Value) + VarintLen(int32(len(r.Headers)))
	for i := range r.Headers {
		n += bytesLen(r.Headers[i].Key) + bytesLen(r.Headers[i].Value)
	}
	return n
}

// EncodedLen returns the number of bytes AppendTo writes for r.
func (r *Record) EncodedLen() int {
	n := r.bodyLen()
	return VarintLen(int32(n)) + n
}

// AppendTo appends the wire form of r (length prefix included) to dst. It
// sizes the record first, grows dst at most once, and then writes by index.
func (r *Record) AppendTo(dst []byte) []byte {
	body := r.bodyLen()
	n := VarintLen(int32(body)) + body
	dst = slices.Grow(dst, n)
	b := dst[len(dst) : len(dst)+n]
	i := putVarint(b, 0, int32(body))
	b[i] = byte(r.Attributes)
	i = putVarlong(b, i+1, r.TimestampDelta)
	i = putVarint(b, i, r.OffsetDelta)
	i = putBytes(b, i, r.Key)
	i = putBytes(b, i, r.Value)
	i = putVarint(b, i, int32(len(r.Headers)))
	for j := range r.Headers {
		i = putBytes(b, i, r.Headers[j].Key)
		i = putBytes(b, i, r.Headers[j].Value)
	}
	return dst[:len(dst)+i]
}

// recordReader parses records out of the (uncompressed) records section of a
// batch. Keys, values and headers alias its input. The first failure sticks,
// with the field that broke.
type recordReader struct {
	p     []byte
	pos   int
	field string
	err   error
}

func (rr *recordReader) fail(field string, err error) {
	if rr.err == nil {
		rr.field, rr.err = field, err
	}
}

func varintErr(n int) error {
	if n == 0 {
		return fmt.Errorf("%w: premature end of records", ErrInvalidRecord)
	}
	return fmt.Errorf("%w: %w", ErrInvalidRecord, ErrVarintOverflow)
}

func (rr *recordReader) varint(field string) int32 {
	if rr.err != nil {
		return 0
	}
	if rr.pos < len(rr.p) && rr.p[rr.pos] < 0x80 {
		u := uint32(rr.p[rr.pos])
		rr.pos++
		return int32(u>>1) ^ -int32(u&1)
	}
	v, n := Varint(rr.p[rr.pos:])
	if n <= 0 {
		rr.fail(field, varintErr(n))
		return 0
	}
	rr.pos += n
	return v
}

func (rr *recordReader) varlong(field string) int64 {
	if rr.err != nil {
		return 0
	}
	v, n := Varlong(rr.p[rr.pos:])
	if n <= 0 {
		rr.fail(field, varintErr(n))
		return 0
	}
	rr.pos += n
	return v
}

// bytes reads a varint length and that many bytes; -1 is null (nil) when
// nullable, any other negative length is invalid. The field names are passed
// whole (not concatenated) so that the hot path does not allocate.
func (rr *recordReader) bytes(lengthField, field string, nullable bool) []byte {
	l := rr.varint(lengthField)
	if rr.err != nil {
		return nil
	}
	if l < 0 {
		if l == -1 && nullable {
			return nil
		}
		rr.fail(lengthField, fmt.Errorf("%w: negative length %d", ErrInvalidRecord, l))
		return nil
	}
	if int(l) > len(rr.p)-rr.pos {
		rr.fail(field, fmt.Errorf("%w: length %d runs past the record", ErrInvalidRecord, l))
		return nil
	}
	b := rr.p[rr.pos : rr.pos+int(l) : rr.pos+int(l)]
	rr.pos += int(l)
	return b
}

// next decodes one record into r, appending its headers to hdrs (which r.Headers
// then aliases). It returns the grown hdrs.
func (rr *recordReader) next(r *Record, hdrs []Header) []Header {
	length := rr.varint("length")
	if rr.err != nil {
		return hdrs
	}
	if length < 0 || int(length) > len(rr.p)-rr.pos {
		rr.fail("length", fmt.Errorf("%w: record length %d with %d bytes left", ErrInvalidRecord, length, len(rr.p)-rr.pos))
		return hdrs
	}
	// Parse the body inside its declared length only.
	outer := rr.p
	end := rr.pos + int(length)
	rr.p = rr.p[:end]
	if rr.pos == end {
		rr.fail("attributes", fmt.Errorf("%w: empty record", ErrInvalidRecord))
	} else {
		r.Attributes = int8(rr.p[rr.pos])
		rr.pos++
	}
	r.TimestampDelta = rr.varlong("timestampDelta")
	r.OffsetDelta = rr.varint("offsetDelta")
	r.Key = rr.bytes("keyLength", "key", true)
	r.Value = rr.bytes("valueLength", "value", true)
	n := rr.varint("headersCount")
	if rr.err == nil && (n < 0 || int(n) > len(rr.p)-rr.pos) {
		rr.fail("headersCount", fmt.Errorf("%w: header count %d", ErrInvalidRecord, n))
	}
	start := len(hdrs)
	for i := int32(0); i < n && rr.err == nil; i++ {
		k := rr.bytes("headerKeyLength", "headerKey", false)
		v := rr.bytes("headerValueLength", "headerValue", true)
		hdrs = append(hdrs, Header{Key: k, Value: v})
	}
	r.Headers = nil
	if len(hdrs) > start {
		r.Headers = hdrs[start:len(hdrs):len(hdrs)]
	}
	if rr.err == nil && rr.pos != end {
		rr.fail("length", fmt.Errorf("%w: record declares %d bytes but uses %d", ErrInvalidRecord, length, int(length)-(end-rr.pos)))
	}
	rr.p = outer
	rr.pos = end
	return hdrs
}

// appendRecords appends recs back to back, as a batch's records section. The
// loop body is Record.AppendTo written out for records without headers (the
// common case), so that a record costs no function call beyond copying its
// key and value.
func appendRecords(dst []byte, recs []Record) []byte {
	for k := range recs {
		r := &recs[k]
		if len(r.Headers) != 0 {
			dst = r.AppendTo(dst)
			continue
		}
		body := 2 + VarlongLen(r.TimestampDelta) + VarintLen(r.OffsetDelta) + bytesLen(r.Key) + bytesLen(r.Value)
		n := VarintLen(int32(body)) + body
		dst = slices.Grow(dst, n)
		b := dst[len(dst) : len(dst)+n]
		i := putVarint(b, 0, int32(body))
		b[i] = byte(r.Attributes)
		i = putVarlong(b, i+1, r.TimestampDelta)
		i = putVarint(b, i, r.OffsetDelta)
		if r.Key == nil {
			b[i] = 1
			i++
		} else {
			i = putVarint(b, i, int32(len(r.Key)))
			i += copy(b[i:], r.Key)
		}
		if r.Value == nil {
			b[i] = 1
			i++
		} else {
			i = putVarint(b, i, int32(len(r.Value)))
			i += copy(b[i:], r.Value)
		}
		b[i] = 0 // headersCount
		dst = dst[:len(dst)+n]
	}
	return dst
}
