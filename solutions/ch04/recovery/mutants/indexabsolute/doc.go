// Package indexabsolute is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: index entries hold absolute offsets instead of
// offset - baseOffset.
// The suite must reject it; see solutions/kill_test.go.
package indexabsolute
