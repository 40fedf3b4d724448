// Package emptycacheasks is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: a follower with an empty epoch cache asks the
// leader about NoEpoch, as Kafka 0.11 to 2.1 did, and keeps its log on the
// undefined answer.
//
// Mistake: a follower with an empty epoch cache asks the leader about
// NoEpoch (-1), as Kafka 0.11 to 2.1 did, and the undefined answer makes it
// keep its whole log; since 2.2 it asks nothing and cuts at its high
// watermark.
//
// Breaks: T10 (a follower with no epochs).
package emptycacheasks
