// Package offsetdeltacounter is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: offsetDelta is the record's position in the batch
// instead of its own OffsetDelta (wrong after compaction leaves gaps).
// The suite must reject it; see solutions/kill_test.go.
package offsetdeltacounter
