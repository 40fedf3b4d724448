// Package keepstorntail is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: a torn tail is kept: when the last batch runs past
// the end of the file, the walk stops but counts its bytes.
//
// Mistake: a torn tail is kept: the last, incomplete batch is not cut.
//
// Breaks: C1 (torn tail).
package keepstorntail
