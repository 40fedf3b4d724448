// Package bigendiangroups is a known-buggy AppendVarint for the mutant bank
// of exercise ch01/varint: the 7-bit groups are written most significant
// first.
//
// Mistake: the groups are written most significant first (big-endian);
// varints start with the low 7 bits.
//
// Breaks: V4 (round trip).
package bigendiangroups
