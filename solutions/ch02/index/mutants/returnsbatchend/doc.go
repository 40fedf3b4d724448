// Package returnsbatchend is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: the scan returns where the batch ends, not where
// it starts.
//
// Mistake: it returns where the batch ends instead of where it starts.
//
// Breaks: I5 (scan to lastOffset >= target).
package returnsbatchend
