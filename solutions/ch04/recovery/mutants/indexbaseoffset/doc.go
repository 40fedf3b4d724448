// Package indexbaseoffset is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: index entries hold the batch's base offset instead of
// its last offset.
// The suite must reject it; see solutions/kill_test.go.
package indexbaseoffset
