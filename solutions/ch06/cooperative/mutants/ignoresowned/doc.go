// Package ignoresowned is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it ignores ownedPartitions when it
// computes the target, so partitions move that could have stayed.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package ignoresowned
