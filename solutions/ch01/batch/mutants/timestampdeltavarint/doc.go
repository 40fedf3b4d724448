// Package timestampdeltavarint is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: timestampDelta is written as a varint
// (int32), not a varlong, so large deltas are cut.
//
// Mistake: timestampDelta is written as a varint (int32); it is a varlong.
//
// Breaks: B1 (record layout).
package timestampdeltavarint
