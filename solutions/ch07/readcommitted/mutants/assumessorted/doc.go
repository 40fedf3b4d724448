// Package assumessorted is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it reads the list in the order it came.
//
// Mistake: the AbortedTransactions list is read in the order it came, as if
// sorted by first offset: the leader lists it by ABORT marker offset, so an
// aborted transaction listed after a later one comes into force too late.
//
// Breaks: E4 (an aborted transaction is skipped).
package assumessorted
