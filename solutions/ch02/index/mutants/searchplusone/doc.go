// Package searchplusone is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: it finds the first entry past the target with target
// + 1, which overflows at Long.MaxValue.
//
// Mistake: it looks for the first entry whose offset is >= target + 1 and
// steps back one; at target Long.MaxValue (9223372036854775807) target + 1
// wraps to the smallest int64, every entry is past it, and the lookup
// answers (baseOffset, 0).
//
// Breaks: I7 (64-bit offsets).
package searchplusone
