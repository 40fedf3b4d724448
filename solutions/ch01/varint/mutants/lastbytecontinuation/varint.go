// Package lastbytecontinuation is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the continuation bit is set on every byte, the last one too.
// The suite must reject it; see solutions/kill_test.go.
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
