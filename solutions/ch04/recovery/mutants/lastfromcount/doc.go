// Package lastfromcount is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: it takes a batch's last offset to be baseOffset +
// recordsCount - 1, as if offsets were dense. A compacted batch keeps its
// lastOffsetDelta with fewer records (its index entry comes out wrong), and
// the cleaner's empty batch has no records at all (its last offset falls
// below its base, and the walk stops there).
//
// Mistake: a batch's last offset is taken to be baseOffset + recordsCount -
// 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta
// with fewer records, so its index entry (or the offset check) comes out
// wrong.
//
// Breaks: C5 (offsets increase), C6 (cut at the first bad byte), C7 (rebuild
// the index).
package lastfromcount
