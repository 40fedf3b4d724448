// Package retention is the exercise of chapter 3 (notes/03-segments-and-retention.md):
// which segments of a partition's log Kafka deletes, by time, by size and by
// log start offset, without ever deleting what followers may still need.
//
// Run its suite with: go test ./exercises/ch03/retention
package retention
