// Package relativetarget is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: it compares relative offsets, with the target made
// relative in an int32.
//
// Mistake: the target is made relative (target - baseOffset) in an int32, to
// compare it with the index's 4-byte relative offsets; a target 2^31 or more
// past the base offset wraps negative and reads as below the first entry.
//
// Breaks: I7 (64-bit offsets).
package relativetarget
