package recovery

import "github.com/kafkalive/kafkalive/exercises/todo"

// Recover walks the .log bytes of a segment from position 0, the way a broker
// does after an unclean shutdown, and returns validBytes, where the file must
// be cut, and the rebuilt offset index (the bytes of the .index file).
// Read notes/04-page-cache-and-recovery.md#how-a-broker-repairs-a-segment.
//
// Keep batches while each is whole and valid
// (notes/04-page-cache-and-recovery.md#validate-every-batch): at least 17
// bytes left, a length field of at least 14 that does not run past the end,
// magic 2, at least 61 bytes, the CRC-32C of bytes [21, end) equal to the
// stored crc, and offsets that start at baseOffset or later and never go
// backwards. Stop at the first batch that is not: everything from there on is
// cut. Rebuild the index on the way
// (notes/04-page-cache-and-recovery.md#rebuild-the-index).
//
// Never trust a length read from the file before you have checked it: a
// damaged file must not make Recover panic.
//
// Check your work with: go test ./exercises/ch04/recovery
func Recover(log []byte, baseOffset int64, indexIntervalBytes int) (int, []byte) {
	panic(todo.TODO) // delete this line and write the recovery
}
