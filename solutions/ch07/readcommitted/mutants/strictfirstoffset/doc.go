// Package strictfirstoffset is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it joins an abort only after its first
// offset.
//
// Mistake: a producer joins the aborted set only at a batch whose last
// offset is past the first offset (<, not <=): an aborted transaction whose
// first batch holds one record is delivered.
//
// Breaks: E4 (an aborted transaction is skipped).
package strictfirstoffset
