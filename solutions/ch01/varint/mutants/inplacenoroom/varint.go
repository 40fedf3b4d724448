package inplacenoroom

// AppendVarint writes in place when dst has room, else appends.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	if cap(dst) > len(dst) { // mistake: some room, not room for 5 bytes
		b := dst[len(dst):cap(dst)]
		n := 0
		for u >= 0x80 {
			b[n] = byte(u) | 0x80
			u >>= 7
			n++
		}
		b[n] = byte(u)
		return dst[:len(dst)+n+1]
	}
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
