// Package inplaceshort is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: when dst has room for five more bytes it writes in
// place, and returns the slice one byte short.
//
// Mistake: when dst has spare capacity for a whole varint it writes in place
// without append, and returns dst[:len(dst)+n] where n counts the
// continuation bytes only: the last byte is written but cut off.
//
// Breaks: V1 (append), V3 (length).
package inplaceshort
