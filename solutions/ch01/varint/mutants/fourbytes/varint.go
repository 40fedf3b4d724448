// Package fourbytes is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the loop stops after four bytes, though an int32 can
// need five.
// The suite must reject it; see solutions/kill_test.go.
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
