package eightbitshift

// AppendVarint shifts by 8.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 8 // mistake: 7 bits per byte
	}
	return append(dst, byte(u))
}
