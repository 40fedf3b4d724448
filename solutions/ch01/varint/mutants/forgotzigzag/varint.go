// Package forgotzigzag is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the zigzag step is missing, so v is written as an unsigned
// number and -1 takes five bytes.
// The suite must reject it; see solutions/kill_test.go.
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
