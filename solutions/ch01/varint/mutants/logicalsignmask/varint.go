// Package logicalsignmask is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the sign mask is taken with a logical shift
// (uint32(v)>>31 is 0 or 1) instead of an arithmetic one (v>>31 is 0 or -1).
// The suite must reject it; see solutions/kill_test.go.
package logicalsignmask

// AppendVarint zigzags v with the wrong sign mask.
func AppendVarint(dst []byte, v int32) []byte {
	u := uint32(v<<1) ^ uint32(v)>>31 // mistake: should be uint32(v>>31)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}
