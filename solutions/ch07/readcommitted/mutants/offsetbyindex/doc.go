// Package offsetbyindex is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it counts records to find their offsets.
//
// Mistake: a record's offset is taken as the batch's base offset plus its
// index in the batch: in a compacted batch the records left keep their
// offset deltas, with gaps between them.
//
// Breaks: E3 (offset = baseOffset + offsetDelta).
package offsetbyindex
