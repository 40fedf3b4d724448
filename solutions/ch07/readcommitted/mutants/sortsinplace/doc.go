// Package sortsinplace is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it sorts the caller's list.
//
// Mistake: the AbortedTransactions list is sorted in place: the caller's
// fetch response changes under it.
//
// Breaks: E12 (the fetch is the caller's).
package sortsinplace
