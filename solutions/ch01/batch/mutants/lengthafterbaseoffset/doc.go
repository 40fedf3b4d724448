// Package lengthafterbaseoffset is a known-buggy batch encoder for the
// mutant bank of exercise ch01/batch: the length field counts the bytes
// after baseOffset (size - 8), the length field itself included.
//
// Mistake: the length field counts the bytes after baseOffset (size - 8).
//
// Breaks: B5 (length field).
package lengthafterbaseoffset
