// Package doubleassigns is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it forgets that the kept partitions
// are taken and deals every partition out again.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package doubleassigns
