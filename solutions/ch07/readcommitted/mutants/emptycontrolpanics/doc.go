// Package emptycontrolpanics is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it reads the first record of every control
// batch.
//
// Mistake: a control batch's first record is read without checking that it
// has one: a control batch the cleaner emptied panics.
//
// Breaks: E11 (no panic).
package emptycontrolpanics
