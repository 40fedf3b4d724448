// Package dropsfirstbatch is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it skips a batch that begins before the fetch
// offset.
//
// Mistake: a batch that begins before the fetch offset is skipped whole: its
// records at and after the fetch offset are lost.
//
// Breaks: E2 (from the fetch offset).
package dropsfirstbatch
