// Package skipsempty is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: the scan skips batches with no records, as if an
// empty batch could not hold an offset; the empty batch the cleaner keeps
// still covers its offsets, and Kafka's scan returns it.
//
// Mistake: it skips batches with no records; the empty batch the cleaner
// keeps still covers its offsets.
//
// Breaks: I5 (scan to lastOffset >= target).
package skipsempty
