// Package strictlyless is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: it looks for the largest offset < target, missing
// exact hits.
//
// Mistake: it looks for the largest offset < target, so an exact hit returns
// the entry before it.
//
// Breaks: I1 (largest entry <= target).
package strictlyless
