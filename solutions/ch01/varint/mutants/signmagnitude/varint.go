package signmagnitude

// AppendVarint writes |v|<<1 | sign.
func AppendVarint(dst []byte, v int32) []byte {
	m, sign := int64(v), uint64(0)
	if m < 0 {
		m, sign = -m, 1
	}
	u := uint64(m)<<1 | sign // mistake: not zigzag
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
