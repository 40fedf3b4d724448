// Package indexscratch is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: it rebuilds every index in one buffer kept between
// calls and returns that buffer.
//
// Mistake: the index is rebuilt in a buffer kept between calls, to save
// allocations, and returned as it is; the next recovery writes over it, so
// the index an earlier call returned changes under the caller.
//
// Breaks: C9 (an earlier result stays).
package indexscratch
