// Package revokeseverything is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it withholds every owned
// partition, even from the member that keeps it, which is the eager protocol's
// stop-the-world.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package revokeseverything
