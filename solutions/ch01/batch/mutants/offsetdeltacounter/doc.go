// Package offsetdeltacounter is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: offsetDelta is the record's position in the
// batch instead of its own OffsetDelta (wrong after compaction leaves gaps).
//
// Mistake: offsetDelta is the record's index in the batch; after compaction
// offsets have gaps, so use the record's own OffsetDelta.
//
// Breaks: B4 (records section).
package offsetdeltacounter
