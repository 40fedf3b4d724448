// Package signedshift is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: the zigzag value is kept in a signed int32, so a
// value from 2^31 up looks negative and the loop writes a single byte.
//
// Mistake: the zigzag value was kept in a signed int32, so from 2^31 up it
// looks negative and the loop stops after one byte.
//
// Breaks: V2 (continuation bit), V3 (length).
package signedshift
