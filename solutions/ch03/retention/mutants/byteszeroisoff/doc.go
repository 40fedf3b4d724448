// Package byteszeroisoff is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: retention.bytes 0 is taken to switch the size
// rule off.
//
// Mistake: retention.bytes 0 is taken to mean "no size limit"; it is a limit
// of zero bytes: every whole segment may go (only -1 switches the rule off).
//
// Breaks: R2 (retention.bytes (-1: no limit)).
package byteszeroisoff
