// Package recovery is the exercise of chapter 4 (notes/04-page-cache-and-recovery.md):
// how a broker repairs a segment after a crash or a power cut, by keeping the
// longest prefix of whole, valid batches and rebuilding the offset index.
//
// Run its suite with: go test ./exercises/ch04/recovery
package recovery
