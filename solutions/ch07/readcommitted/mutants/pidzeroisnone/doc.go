// Package pidzeroisnone is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it takes producer id 0 for no producer.
//
// Mistake: producer id 0 is taken for "no producer id": only ids above 0 are
// checked, so producer 0's aborted transaction is delivered. The id that
// means none is -1.
//
// Breaks: E4 (an aborted transaction is skipped).
package pidzeroisnone
