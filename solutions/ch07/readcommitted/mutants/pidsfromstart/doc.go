// Package pidsfromstart is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it puts every aborted producer in the set
// from the start.
//
// Mistake: every producer id of the list is aborted from the start of the
// fetch, whatever its first offset: a transaction of that producer before
// the aborted one (committed) is skipped too.
//
// Breaks: E5 (an abort begins at its first offset), E4 (an aborted
// transaction is skipped).
package pidsfromstart
