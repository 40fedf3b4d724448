// Package skipwithoutoverhead is a known-buggy index lookup for the mutant
// bank of exercise ch02/index: the scan skips length bytes instead of 12 +
// length, forgetting that length does not count the baseOffset and length
// fields.
//
// Mistake: it skips length bytes to the next batch; the next batch starts 12
// + length bytes on (length does not count baseOffset and itself).
//
// Breaks: I5 (scan to lastOffset >= target).
package skipwithoutoverhead
