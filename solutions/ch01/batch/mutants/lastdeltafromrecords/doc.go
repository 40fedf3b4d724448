// Package lastdeltafromrecords is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: it writes lastOffsetDelta as the last
// record's offset delta instead of the field. After compaction the batch
// keeps its lastOffsetDelta although its last records are gone, and the
// cleaner's empty batch has no records at all.
//
// Mistake: lastOffsetDelta is taken from the last record's offsetDelta; it
// is a field of its own, which a compacted batch keeps after its last
// records are gone (and the cleaner's empty batch has no records at all).
//
// Breaks: B3 (header fields).
package lastdeltafromrecords
