// Package returnsbatchend is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan returns where the batch ends, not where it starts.
// The suite must reject it; see solutions/kill_test.go.
package returnsbatchend
