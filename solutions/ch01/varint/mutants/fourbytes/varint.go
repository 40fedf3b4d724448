package fourbytes

// AppendVarint writes at most four bytes.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	for i := 0; i < 3 && u >= 0x80; i++ { // mistake: 4 bytes at most
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u&0x7f))
}
