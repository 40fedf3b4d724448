// Package ignoresproducer is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it skips every transactional batch while any
// abort is in force.
//
// Mistake: while any aborted transaction is in force, every transactional
// batch is skipped, whichever producer wrote it: the aborted range is taken
// as offsets, not as one producer's batches. On a producer whose own abort
// has ended, or is yet to begin, it skips what that producer's marker or
// first offset leaves delivered.
//
// Breaks: E7 (only the aborted producer), E6 (the ABORT marker ends it),
// E5 (an abort begins at its first offset).
package ignoresproducer
