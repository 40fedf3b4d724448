// Package batch is the second exercise of chapter 1 (notes/01-records-on-disk.md):
// the record batch v2 encoder, checked byte for byte against batches a real
// Kafka broker wrote.
//
// Run its suite with: go test ./exercises/ch01/batch
package batch
