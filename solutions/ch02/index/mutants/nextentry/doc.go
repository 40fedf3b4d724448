// Package nextentry is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: it returns the next entry: the smallest offset >= target.
// The suite must reject it; see solutions/kill_test.go.
package nextentry
