package varint

import "github.com/kafkalive/kafkalive/exercises/todo"

// AppendVarint appends the Kafka varint encoding of v to dst and returns the
// extended slice (Kafka's ByteUtils.writeVarint).
//
// Read notes/01-records-on-disk.md#varints-7-bits-at-a-time first. Two steps:
//
//  1. Zigzag: map 0, -1, 1, -2, 2, ... to 0, 1, 2, 3, 4, ... so that small
//     negative numbers stay small.
//  2. Write the result 7 bits at a time, least significant group first, with
//     the high bit (0x80) set on every byte but the last.
//
// Kafka's tests: 0 → 00, -1 → 01, 1 → 02, 64 → 80 01, -2147483648 → ff ff ff ff 0f.
//
// Check your work with: go test ./exercises/ch01/varint
func AppendVarint(dst []byte, v int32) []byte {
	panic(todo.TODO) // delete this line and write the encoder
}
