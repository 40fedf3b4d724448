// Package overwritesdst is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the varint replaces dst instead of being appended to it.
// The suite must reject it; see solutions/kill_test.go.
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
