// Package skipwithoutoverhead is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan skips length bytes instead of 12 + length,
// forgetting that length does not count the baseOffset and length fields.
// The suite must reject it; see solutions/kill_test.go.
package skipwithoutoverhead
