// Package firstentrybelow is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: when the target is below the first entry it returns the
// first entry instead of (baseOffset, 0).
// The suite must reject it; see solutions/kill_test.go.
package firstentrybelow
