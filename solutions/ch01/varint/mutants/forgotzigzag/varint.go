package forgotzigzag

// AppendVarint writes uint32(v) 7 bits at a time.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v) // mistake: no zigzag
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
