// Package trustslength is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: the length field is used before it is checked, so
// zero padding (length 0) makes it slice past the batch and panic.
//
// Mistake: the length field is used before it is checked: zero padding reads
// as length 0, and a slice up to 12 + length runs backwards.
//
// Breaks: C2 (length field), C8 (no panic).
package trustslength
