// Package absoluteoffsets is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: it treats the relative offsets in the index as
// absolute.
//
// Mistake: the relative offsets are compared with the target as if absolute
// (baseOffset not added).
//
// Breaks: I3 (relative offsets).
package absoluteoffsets
