package index

import "github.com/kafkalive/kafkalive/exercises/todo"

// LookupIndex returns the largest entry of the offset index whose offset is
// <= target, as (absolute offset, position in the .log), or (baseOffset, 0) if
// there is none: an empty index, or a target below the first entry.
// Read notes/02-offsets-and-the-index.md#the-sparse-index.
//
// index holds the bytes of a .index file: 8-byte entries, each a relative
// offset (offset - baseOffset) and a position, both big-endian int32. Only the
// first entries entries are valid: the active segment's file is preallocated
// and the rest is zeros (notes/02-offsets-and-the-index.md#a-preallocated-index-is-full-of-zeros).
// Entries are sorted by offset, so binary search.
func LookupIndex(index []byte, entries int, baseOffset, target int64) (int64, int32) {
	panic(todo.TODO) // delete this line and write the index lookup
}

// FindBatch scans log from startPos for the first batch whose last offset is
// >= target and returns its position; found is false if no batch from startPos
// on holds the target. Read notes/02-offsets-and-the-index.md#the-short-scan.
//
// You need three header fields of each batch: baseOffset (bytes 0-7), length
// (8-11) and lastOffsetDelta (23-26). The next batch starts 12 + length bytes on.
//
// Check your work with: go test ./exercises/ch02/index
func FindBatch(log []byte, startPos int32, target int64) (int32, bool) {
	panic(todo.TODO) // delete this line and write the scan
}
