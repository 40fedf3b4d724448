// Package lastfromcount is a known-buggy index lookup for the mutant bank of
// exercise ch02/index: the scan takes a batch's last offset to be baseOffset
// + recordsCount - 1, as if offsets were dense; after compaction a batch
// keeps its lastOffsetDelta with fewer records, and an empty batch has none.
//
// Mistake: it takes a batch's last offset to be baseOffset + recordsCount -
// 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta
// with fewer records, and the cleaner's empty batch has none.
//
// Breaks: I5 (scan to lastOffset >= target).
package lastfromcount
