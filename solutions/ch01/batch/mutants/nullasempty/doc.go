// Package nullasempty is a known-buggy batch encoder for the mutant bank of
// exercise ch01/batch: a null key or value is written with length 0 instead
// of -1.
//
// Mistake: a null key or value is written with length 0; null is length -1
// (varint 01), 0 is the empty string.
//
// Breaks: B1 (record layout).
package nullasempty
