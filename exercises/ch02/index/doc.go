// Package index is the exercise of chapter 2 (notes/02-offsets-and-the-index.md):
// how a broker finds the batch holding an offset, through the sparse offset
// index and a short scan of the log.
//
// Run its suite with: go test ./exercises/ch02/index
package index
