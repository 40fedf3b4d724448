// Package nullasempty is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: a null key or value is written with length 0 instead
// of -1.
// The suite must reject it; see solutions/kill_test.go.
package nullasempty
