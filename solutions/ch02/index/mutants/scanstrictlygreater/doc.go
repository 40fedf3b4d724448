// Package scanstrictlygreater is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan looks for lastOffset > target.
// The suite must reject it; see solutions/kill_test.go.
package scanstrictlygreater
