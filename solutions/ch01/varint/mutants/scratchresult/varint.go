package scratchresult

// scratch holds the encoding, reused by every call.
var scratch [5]byte

// AppendVarint encodes v into scratch, then appends it to dst.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	n := 0
	for u >= 0x80 {
		scratch[n] = byte(u) | 0x80
		u >>= 7
		n++
	}
	scratch[n] = byte(u)
	if len(dst) == 0 {
		return scratch[:n+1] // mistake: the caller now holds our scratch buffer
	}
	return append(dst, scratch[:n+1]...)
}
