// Package mszeroisoff is a known-buggy retention rule for the mutant bank of
// exercise ch03/retention: retention.ms 0 is taken to switch the time rule
// off.
//
// Mistake: retention.ms 0 is taken to mean "no time limit"; it is a limit of
// zero: every segment whose largest timestamp is in the past may go (only -1
// switches the rule off).
//
// Breaks: R1 (retention.ms (-1: forever)).
package mszeroisoff
