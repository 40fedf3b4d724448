package kafkalog

import "math/bits"

// Kafka's variable-length integers (org.apache.kafka.common.utils.ByteUtils).
//
// The wire format is Protocol Buffers': 7 data bits per byte, least significant
// group first, the high bit set on every byte but the last. Signed values are
// zigzag-encoded first so that small negative numbers stay short.
//
// Kafka fixes the widths: a varint is a 32-bit int (at most 5 bytes), a varlong a
// 64-bit long (at most 10 bytes). A record's offsetDelta, lengths and header count
// are varints; only its timestampDelta is a varlong.
//
// Decoding follows Kafka exactly on non-canonical input: the 5th byte of a varint
// is shifted left by 28 into a 32-bit integer, so its bits 4-6 are dropped
// (ff ff ff ff 7f reads like ff ff ff ff 0f); the 10th byte of a varlong only
// contributes its lowest bit. A 5th (10th) byte that still has the continuation
// bit set is an overflow, as in Kafka.

const (
	// MaxVarintLen is the longest encoding of a Kafka varint (zigzag int32).
	MaxVarintLen = 5
	// MaxVarlongLen is the longest encoding of a Kafka varlong (zigzag int64).
	MaxVarlongLen = 10
)

// AppendUvarint appends the unsigned varint encoding of v (Kafka's
// writeUnsignedVarint, used by the protocol's compact types) to dst.
func AppendUvarint(dst []byte, v uint32) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// AppendVarint appends the zigzag varint encoding of v to dst.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	if u < 0x80 {
		return append(dst, byte(u))
	}
	if u < 0x4000 {
		return append(dst, byte(u)|0x80, byte(u>>7))
	}
	return AppendUvarint(dst, u)
}

// AppendVarlong appends the zigzag varlong encoding of v to dst.
func AppendVarlong(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	if u < 0x80 {
		return append(dst, byte(u))
	}
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// Uvarint decodes an unsigned varint from b and returns it with the number of
// bytes read. n == 0: b ended first (truncated); n < 0: overflow, -n bytes read.
func Uvarint(b []byte) (v uint32, n int) {
	for i := 0; i < MaxVarintLen; i++ {
		if i == len(b) {
			return 0, 0
		}
		c := b[i]
		if c < 0x80 {
			// For i == 4 the shift drops bits 4-6 of c, as Kafka does.
			return v | uint32(c)<<(7*i), i + 1
		}
		v |= uint32(c&0x7f) << (7 * i)
	}
	return 0, -MaxVarintLen
}

// Varint decodes a zigzag varint (a Kafka int32) from b and returns it with the
// number of bytes read. n == 0: b ended first; n < 0: overflow, -n bytes read.
func Varint(b []byte) (v int32, n int) {
	if len(b) > 0 && b[0] < 0x80 {
		u := uint32(b[0])
		return int32(u>>1) ^ -int32(u&1), 1
	}
	u, n := Uvarint(b)
	return int32(u>>1) ^ -int32(u&1), n
}

// Uvarlong decodes an unsigned varlong from b (see Uvarint for n).
func Uvarlong(b []byte) (v uint64, n int) {
	for i := 0; i < MaxVarlongLen; i++ {
		if i == len(b) {
			return 0, 0
		}
		c := b[i]
		if c < 0x80 {
			// For i == 9 only the lowest bit of c survives the shift, as in Kafka.
			return v | uint64(c)<<(7*i), i + 1
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return 0, -MaxVarlongLen
}

// Varlong decodes a zigzag varlong (a Kafka int64) from b (see Varint for n).
func Varlong(b []byte) (v int64, n int) {
	if len(b) > 0 && b[0] < 0x80 {
		u := uint64(b[0])
		return int64(u>>1) ^ -int64(u&1), 1
	}
	u, n := Uvarlong(b)
	return int64(u>>1) ^ -int64(u&1), n
}

// UvarintLen returns the number of bytes AppendUvarint writes for v. The
// lengths of real records, keys and values mostly take 1 or 2 bytes, so those
// are tested first.
func UvarintLen(v uint32) int {
	if v < 1<<7 {
		return 1
	}
	if v < 1<<14 {
		return 2
	}
	return int((uint(bits.Len32(v)) + 6) / 7)
}

// VarintLen returns the number of bytes AppendVarint writes for v
// (Kafka's ByteUtils.sizeOfVarint).
func VarintLen(v int32) int { return UvarintLen(uint32(v<<1) ^ uint32(v>>31)) }

// VarlongLen returns the number of bytes AppendVarlong writes for v
// (Kafka's ByteUtils.sizeOfVarlong).
func VarlongLen(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	if u < 1<<7 {
		return 1
	}
	return int((uint(bits.Len64(u)) + 6) / 7)
}
