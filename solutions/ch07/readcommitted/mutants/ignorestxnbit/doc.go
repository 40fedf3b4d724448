// Package ignorestxnbit is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it skips every batch of an aborted producer,
// transactional or not.
//
// Mistake: every batch of a producer in the aborted set is skipped, without
// looking at the transactional bit.
//
// Breaks: E8 (only transactional batches).
package ignorestxnbit
