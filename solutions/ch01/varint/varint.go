package varint

// AppendVarint appends the Kafka varint encoding of v to dst and returns the
// extended slice (Kafka's ByteUtils.writeVarint).
//
// Two steps, both in notes/01-records-on-disk.md#varints-7-bits-at-a-time:
//
//  1. Zigzag: map 0, -1, 1, -2, 2, ... to 0, 1, 2, 3, 4, ... so that small
//     negative numbers stay small: (v << 1) ^ (v >> 31), as a uint32.
//  2. Write the result 7 bits at a time, least significant group first, with
//     the high bit (0x80) set on every byte but the last. An int32 takes 1 to
//     5 bytes.
//
// Kafka's tests: 0 → 00, -1 → 01, 1 → 02, 64 → 80 01, -2147483648 → ff ff ff ff 0f.
func AppendVarint(dst []byte, v int32) []byte {
	// v>>31 is an arithmetic shift: all ones for a negative v, all zeros
	// otherwise. XOR with it flips the bits of negative numbers.
	u := uint32(v<<1) ^ uint32(v>>31)
	// Compute in uint32, so that the loop ends for every value: a signed
	// zigzag value from 2^31 up would look negative and stop after one byte.
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80) // low 7 bits, "more follows"
		u >>= 7
	}
	return append(dst, byte(u)) // the last byte has its high bit clear
}
