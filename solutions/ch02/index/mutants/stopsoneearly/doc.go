// Package stopsoneearly is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: the binary search stops one entry early.
//
// Mistake: the binary search stops one entry early.
//
// Breaks: I1 (largest entry <= target).
package stopsoneearly
