// Package timestampdeltavarint is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: timestampDelta is written as a varint (int32), not a
// varlong, so large deltas are cut.
// The suite must reject it; see solutions/kill_test.go.
package timestampdeltavarint
