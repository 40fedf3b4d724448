// Package nextentry is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: it returns the next entry: the smallest offset >=
// target.
//
// Mistake: it returns the next entry (the smallest offset >= target) instead
// of the largest offset <= target.
//
// Breaks: I1 (largest entry <= target).
package nextentry
