package signedshift

// AppendVarint zigzags v in an int32.
func AppendVarint(dst []byte, v int32) []byte {
	u := v<<1 ^ v>>31 // mistake: still signed
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
