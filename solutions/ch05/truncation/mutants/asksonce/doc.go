// Package asksonce is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it asks the leader once and stops, whatever the
// round said.
//
// Mistake: Truncate asks the leader once and stops, whatever the round said.
//
// Breaks: T1 (log matching), T4 (another round).
package asksonce
