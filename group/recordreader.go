package group

import (
	"encoding/binary"
	"fmt"
)

// reader reads the big-endian fields of __consumer_offsets records and
// remembers the first failure, naming the field (a sticky decoder in the
// franz-go kbin style). flexible switches to the compact encodings of
// flexible versions: lengths as unsigned varints of length+1 (0: null) and
// tagged fields after each struct.
type reader struct {
	b        []byte
	what     string
	flexible bool
	err      error
}

func (r *reader) fail(field, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s %s: %s: %w", r.what, field, fmt.Sprintf(format, args...), ErrCorruptOffsetRecord)
	}
}

func (r *reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.fail(field, "need %d bytes, have %d", n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) int8(field string) int8 {
	if b := r.take(1, field); b != nil {
		return int8(b[0])
	}
	return 0
}

// uuid reads a Kafka Uuid: 16 bytes.
func (r *reader) uuid(field string) [16]byte {
	var u [16]byte
	copy(u[:], r.take(16, field))
	return u
}

func (r *reader) int16(field string) int16 {
	if b := r.take(2, field); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (r *reader) int32(field string) int32 {
	if b := r.take(4, field); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

func (r *reader) int64(field string) int64 {
	if b := r.take(8, field); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

func (r *reader) uvarint(field string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 1<<31 {
		r.fail(field, "bad unsigned varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// length reads a length: -1 is null. Classic strings have an int16
// length, bytes and arrays an int32; compact ones a uvarint of length+1.
func (r *reader) length(field string, classic32 bool) int {
	switch {
	case r.flexible:
		return int(r.uvarint(field+" length")) - 1
	case classic32:
		return int(r.int32(field + " length"))
	}
	return int(r.int16(field + " length"))
}

// string reads a string that may not be null.
func (r *reader) string(field string) string {
	s := r.nullableString(field)
	if s == nil {
		r.fail(field, "null")
		return ""
	}
	return *s
}

// nullableString reads a string, nil for null.
func (r *reader) nullableString(field string) *string {
	n := r.length(field, false)
	if r.err != nil || n < 0 {
		return nil
	}
	b := r.take(n, field)
	if r.err != nil {
		return nil
	}
	s := string(b)
	return &s
}

// bytes reads bytes that may not be null (a copy).
func (r *reader) bytes(field string) []byte {
	n := r.length(field, true)
	if r.err == nil && n < 0 {
		r.fail(field, "null")
	}
	return append([]byte{}, r.take(n, field)...)
}

// arrayLen reads an array's count, which may not be null.
func (r *reader) arrayLen(field string) int {
	n := r.length(field, true)
	if r.err == nil && n < 0 {
		r.fail(field, "null")
	}
	return n
}

// taggedFields skips the tagged fields that end a flexible struct.
func (r *reader) taggedFields() {
	if !r.flexible {
		return
	}
	for n := r.uvarint("tagged fields"); n > 0 && r.err == nil; n-- {
		r.uvarint("tag")
		r.take(int(r.uvarint("tag size")), "tagged field")
	}
}

func (r *reader) done() error {
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%s: %d bytes after the last field: %w", r.what, len(r.b), ErrCorruptOffsetRecord)
	}
	return r.err
}
