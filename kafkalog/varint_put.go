package kafkalog

// Index-based varint writers for the record encoder, which sizes a record
// first and then fills it in place. Each returns the index after what it
// wrote; b must have room (the caller sized it with VarintLen and friends).

// putVarint writes the zigzag varint v at b[i:]. The 1-byte case inlines.
func putVarint(b []byte, i int, v int32) int {
	u := uint32(v<<1) ^ uint32(v>>31)
	if u < 0x80 {
		b[i] = byte(u)
		return i + 1
	}
	return putUvarint64(b, i, uint64(u))
}

// putVarlong writes the zigzag varlong v at b[i:].
func putVarlong(b []byte, i int, v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	if u < 0x80 {
		b[i] = byte(u)
		return i + 1
	}
	return putUvarint64(b, i, u)
}

func putUvarint64(b []byte, i int, u uint64) int {
	for u >= 0x80 {
		b[i] = byte(u) | 0x80
		u >>= 7
		i++
	}
	b[i] = byte(u)
	return i + 1
}

// putBytes writes a varint length and x at b[i:]; nil is length -1.
func putBytes(b []byte, i int, x []byte) int {
	if x == nil {
		b[i] = 1 // varint -1
		return i + 1
	}
	i = putVarint(b, i, int32(len(x)))
	return i + copy(b[i:], x)
}
