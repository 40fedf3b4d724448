// Package nocrc is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the CRC is not checked.
// The suite must reject it; see solutions/kill_test.go.
package nocrc
