// Package nooffsetcheck is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: offsets are not checked, so a batch whose offsets go
// backwards is kept.
// The suite must reject it; see solutions/kill_test.go.
package nooffsetcheck
