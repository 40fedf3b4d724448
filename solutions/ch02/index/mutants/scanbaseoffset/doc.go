// Package scanbaseoffset is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan compares a batch's base offset, not its last
// offset, so it misses a target inside a batch.
// The suite must reject it; see solutions/kill_test.go.
package scanbaseoffset
