// Package signedshift is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the zigzag value is kept in a signed int32, so a value
// from 2^31 up looks negative and the loop writes a single byte.
// The suite must reject it; see solutions/kill_test.go.
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
