// Package firsttimestamp is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: the age is taken from the first batch's
// timestamp instead of the segment's largest timestamp.
//
// Mistake: the age is taken from the first batch's timestamp, not the
// segment's largest timestamp.
//
// Breaks: R1 (retention.ms (-1: forever)).
package firsttimestamp
