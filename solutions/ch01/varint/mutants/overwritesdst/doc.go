// Package overwritesdst is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: the varint replaces dst instead of being appended to
// it.
//
// Mistake: the varint replaces dst instead of being appended to it.
//
// Breaks: V1 (append).
package overwritesdst
