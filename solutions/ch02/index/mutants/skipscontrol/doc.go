// Package skipscontrol is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: the scan skips control batches (transaction markers),
// as if they were not part of the log; they hold offsets like any batch, and
// Kafka's scan returns them.
//
// Mistake: it skips control batches (transaction markers); they hold offsets
// like any other batch.
//
// Breaks: I5 (scan to lastOffset >= target).
package skipscontrol
