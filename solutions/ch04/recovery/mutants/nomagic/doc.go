// Package nomagic is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the magic byte is not checked.
// The suite must reject it; see solutions/kill_test.go.
package nomagic
