// Package absoluteoffsets is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: it treats the relative offsets in the index as absolute.
// The suite must reject it; see solutions/kill_test.go.
package absoluteoffsets
