// Package startoffsetownbase is a known-buggy retention rule for the mutant
// bank of exercise ch03/retention: the log start offset is compared with the
// segment's own base offset, deleting the segment that holds it.
//
// Mistake: the log start offset is compared with the segment's own base
// offset; a segment goes only when the next one starts at or before it.
//
// Breaks: R3 (log start offset).
package startoffsetownbase
