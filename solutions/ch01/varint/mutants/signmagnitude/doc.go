// Package signmagnitude is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: sign and magnitude (|v|<<1 | sign) instead of
// zigzag, so -1 becomes 3 instead of 1.
//
// Mistake: sign and magnitude instead of zigzag: |v|<<1 | sign.
//
// Breaks: V4 (round trip).
package signmagnitude
