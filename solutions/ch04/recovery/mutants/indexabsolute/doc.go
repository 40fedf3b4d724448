// Package indexabsolute is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: index entries hold absolute offsets instead of
// offset - baseOffset.
//
// Mistake: index entries hold absolute offsets; the .index stores offset -
// baseOffset.
//
// Breaks: C7 (rebuild the index).
package indexabsolute
