// Package trustszeropadding is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: it counts the entries from the file length, so the
// zero-filled slots of a preallocated index are read as entries.
// The suite must reject it; see solutions/kill_test.go.
package trustszeropadding
