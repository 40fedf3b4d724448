// Package eightbitshift is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: the value is shifted by 8 bits per byte instead of
// 7.
//
// Mistake: the value is shifted by 8 bits per byte instead of 7.
//
// Breaks: V3 (length), V4 (round trip).
package eightbitshift
