// Package lastbytecontinuation is a known-buggy AppendVarint for the mutant
// bank of exercise ch01/varint: the continuation bit is set on every byte,
// the last one too.
//
// Mistake: the continuation bit (0x80) is also set on the last byte.
//
// Breaks: V2 (continuation bit).
package lastbytecontinuation
