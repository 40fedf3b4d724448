// Package deletesemptyactive is a known-buggy retention rule for the mutant
// bank of exercise ch03/retention: the empty active segment is deleted too.
//
// Mistake: the empty active segment is deleted too; the log must keep a
// segment to append to.
//
// Breaks: R5 (active segment).
package deletesemptyactive
