// Package int32length is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: it checks a batch's end against the file in int32,
// where a damaged length near MaxInt32 wraps negative and passes.
//
// Mistake: the torn-batch check 12 + length > len(file) is done in int32: a
// damaged length field near MaxInt32 (7f ff ff f8 and up) wraps the sum
// negative, the check passes, and slicing the batch runs past the end of the
// file (a panic).
//
// Breaks: C8 (no panic).
package int32length
