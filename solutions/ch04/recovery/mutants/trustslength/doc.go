// Package trustslength is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the length field is used before it is checked, so
// zero padding (length 0) makes it slice past the batch and panic.
// The suite must reject it; see solutions/kill_test.go.
package trustslength
