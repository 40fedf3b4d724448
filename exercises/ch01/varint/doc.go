// Package varint is the first exercise of chapter 1 (notes/01-records-on-disk.md):
// Kafka's zigzag varint, the variable-length integer every record field but the
// timestamp delta is written in.
//
// Run its suite with: go test ./exercises/ch01/varint
package varint
