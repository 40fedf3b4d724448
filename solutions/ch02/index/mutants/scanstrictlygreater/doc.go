// Package scanstrictlygreater is a known-buggy index lookup for the mutant
// bank of exercise ch02/index: the scan looks for lastOffset > target.
//
// Mistake: it looks for lastOffset > target instead of >=, so it skips the
// batch ending at the target.
//
// Breaks: I5 (scan to lastOffset >= target).
package scanstrictlygreater
