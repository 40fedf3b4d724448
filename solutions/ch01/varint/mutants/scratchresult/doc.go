// Package scratchresult is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: with nothing to append to, it returns its own
// scratch array, which the next call overwrites.
//
// Mistake: with a nil or empty dst it returns the scratch buffer it encoded
// into, to save an allocation; the next call writes over it, so an earlier
// result changes under the caller.
//
// Breaks: V7 (an earlier result stays).
package scratchresult
