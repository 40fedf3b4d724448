// Package recordscratch is a known-buggy batch encoder for the mutant bank
// of exercise ch01/batch: AppendRecord builds every record in one buffer
// kept between calls and, with nothing to append to, returns that buffer.
//
// Mistake: AppendRecord builds each record in a buffer kept between calls,
// to save an allocation, and with a nil or empty dst returns that buffer
// itself; the next record is written over it, so an earlier result changes
// under the caller.
//
// Breaks: B8 (an earlier result stays).
package recordscratch
