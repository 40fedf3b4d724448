// Package ignoresowned is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it ignores ownedPartitions
// when it computes the target, so partitions move that could have stayed.
//
// Mistake: ownedPartitions are ignored: the assignment is computed afresh,
// so partitions move that did not need to.
//
// Breaks: G3 (sticky), G9 (Kafka's deal).
package ignoresowned
