// Package logicalsignmask is a known-buggy AppendVarint for the mutant bank
// of exercise ch01/varint: the sign mask is taken with a logical shift
// (uint32(v)>>31 is 0 or 1) instead of an arithmetic one (v>>31 is 0 or -1).
//
// Mistake: the sign mask uses a logical shift (uint32(v)>>31) instead of an
// arithmetic one (v>>31).
//
// Breaks: V3 (length), V4 (round trip).
package logicalsignmask
