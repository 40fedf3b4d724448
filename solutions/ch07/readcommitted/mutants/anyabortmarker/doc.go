// Package anyabortmarker is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it ends every abort at any ABORT marker.
//
// Mistake: an ABORT marker empties the whole aborted set, whichever producer
// it belongs to: another producer's aborted transaction still going on is
// delivered.
//
// Breaks: E4 (an aborted transaction is skipped).
package anyabortmarker
