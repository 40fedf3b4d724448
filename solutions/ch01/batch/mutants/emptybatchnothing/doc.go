// Package emptybatchnothing is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: a batch with no records is not written at
// all.
//
// Mistake: a batch with no records is not written at all (there is nothing
// to store); the cleaner keeps such batches on purpose, 61 bytes of header,
// for the producer state they carry.
//
// Breaks: B3 (header fields).
package emptybatchnothing
