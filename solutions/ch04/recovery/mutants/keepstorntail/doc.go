// Package keepstorntail is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: a torn tail is kept: when the last batch runs past the
// end of the file, the walk stops but counts its bytes.
// The suite must reject it; see solutions/kill_test.go.
package keepstorntail
