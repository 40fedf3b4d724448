// Package scanbaseoffset is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: the scan compares a batch's base offset, not its
// last offset, so it misses a target inside a batch.
//
// Mistake: it compares the batch's base offset (the first offset) instead of
// its last offset, so it misses a target inside a batch.
//
// Breaks: I5 (scan to lastOffset >= target).
package scanbaseoffset
