package overwritesdst

// AppendVarint returns a fresh slice.
func AppendVarint(dst []byte, v int32) []byte {
	dst = dst[:0] // mistake: throws away what the caller had
	u := uint32(v<<1) ^ uint32(v>>31)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
