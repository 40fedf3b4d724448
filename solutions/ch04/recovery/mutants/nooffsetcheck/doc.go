// Package nooffsetcheck is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: offsets are not checked, so a batch whose offsets
// go backwards is kept.
//
// Mistake: offsets are not checked: a batch whose offsets go backwards is
// kept.
//
// Breaks: C5 (offsets increase).
package nooffsetcheck
