// Package noindex is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the index is not rebuilt.
//
// Mistake: the index is not rebuilt.
//
// Breaks: C7 (rebuild the index).
package noindex
