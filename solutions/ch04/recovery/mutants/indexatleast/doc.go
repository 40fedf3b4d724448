// Package indexatleast is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: an index entry is written once index.interval.bytes
// were kept (>=) instead of more than that (>).
// The suite must reject it; see solutions/kill_test.go.
package indexatleast
