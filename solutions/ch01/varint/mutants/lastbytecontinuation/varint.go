package lastbytecontinuation

// AppendVarint zigzags v and sets 0x80 on every byte.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u)|0x80) // mistake: the last byte says "more follows"
}
