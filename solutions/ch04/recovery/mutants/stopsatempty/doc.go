// Package stopsatempty is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: it takes a batch with no records for damage and
// cuts the segment there. The log cleaner keeps such a batch on purpose when
// it holds the last sequence of a producer (its header is all it needs), and
// Kafka's recovery keeps it like any whole, valid batch.
//
// Mistake: a batch with no records is taken for damage and the segment is
// cut there; the cleaner keeps such batches on purpose, and they are valid.
//
// Breaks: C6 (cut at the first bad byte).
package stopsatempty
