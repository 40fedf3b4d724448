// Package forgotzigzag is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: the zigzag step is missing, so v is written as an
// unsigned number and -1 takes five bytes.
//
// Mistake: the zigzag step is missing: v was written as an unsigned number,
// so -1 takes 5 bytes.
//
// Breaks: V3 (length), V4 (round trip).
package forgotzigzag
