// Package indexatleast is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: an index entry is written once
// index.interval.bytes were kept (>=) instead of more than that (>).
//
// Mistake: an index entry is written when at least index.interval.bytes were
// kept (>=); Kafka waits for more than (>).
//
// Breaks: C7 (rebuild the index).
package indexatleast
