// Package epochsscratch is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: the trimmed epoch cache is built in one slice
// kept between calls.
//
// Mistake: the trimmed epoch cache is built in a slice kept between calls,
// to save allocations, and returned in the follower; the next truncation
// writes over it, so the epochs an earlier call returned change under the
// caller.
//
// Breaks: T11 (an earlier result stays).
package epochsscratch
