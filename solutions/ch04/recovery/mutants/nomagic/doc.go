// Package nomagic is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the magic byte is not checked.
//
// Mistake: the magic byte is not checked.
//
// Breaks: C4 (magic).
package nomagic
