// Package indexbaseoffset is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: index entries hold the batch's base offset instead
// of its last offset.
//
// Mistake: index entries hold the batch's base offset; Kafka indexes the
// batch's last offset.
//
// Breaks: C7 (rebuild the index).
package indexbaseoffset
