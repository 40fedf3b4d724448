// Package intervalzero is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: index.interval.bytes 0 is taken to switch the
// index off.
//
// Mistake: index.interval.bytes 0 is taken to mean "no index"; it means an
// entry for every batch after the first (more than 0 bytes since the last
// entry).
//
// Breaks: C7 (rebuild the index).
package intervalzero
