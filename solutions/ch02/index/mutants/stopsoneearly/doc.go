// Package stopsoneearly is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the binary search stops one entry early.
// The suite must reject it; see solutions/kill_test.go.
package stopsoneearly
