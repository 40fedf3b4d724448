// Package swappedfields is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: it reads the entry's fields in the wrong order.
//
// Mistake: the entry's two fields are read in the wrong order (position
// first).
//
// Breaks: I1 (largest entry <= target).
package swappedfields
