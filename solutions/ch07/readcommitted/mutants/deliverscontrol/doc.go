// Package deliverscontrol is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it hands out the records of control batches.
//
// Mistake: the records of control batches (the COMMIT and ABORT markers) are
// handed out with the data: a marker is a record like the others.
//
// Breaks: E1 (control records are never delivered).
package deliverscontrol
