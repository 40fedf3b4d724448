// Package neverremoves is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it never takes a producer out of the aborted
// set.
//
// Mistake: the ABORT marker does not take its producer out of the aborted
// set: the producer's next transaction, committed, is skipped too.
//
// Breaks: E6 (the ABORT marker ends it).
package neverremoves
