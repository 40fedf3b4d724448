package bigendiangroups

// AppendVarint writes the groups high to low.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v>>31)
	var groups []byte
	for {
		groups = append(groups, byte(u&0x7f))
		u >>= 7
		if u == 0 {
			break
		}
	}
	for i := len(groups) - 1; i >= 0; i-- { // mistake: high group first
		b := groups[i]
		if i > 0 {
			b |= 0x80
		}
		dst = append(dst, b)
	}
	return dst
}
