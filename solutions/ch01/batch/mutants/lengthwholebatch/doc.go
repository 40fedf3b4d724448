// Package lengthwholebatch is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: the length field counts the whole batch
// instead of the bytes after itself.
//
// Mistake: the length field counts the whole batch; it counts the bytes
// after itself (size - 12).
//
// Breaks: B5 (length field).
package lengthwholebatch
