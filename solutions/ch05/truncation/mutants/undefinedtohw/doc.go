// Package undefinedtohw is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it falls back to the high watermark when the
// leader has no answer, as Kafka 0.11 to 2.7 did; since 2.8 the follower
// keeps its log.
//
// Mistake: an undefined answer makes the follower cut at its high watermark,
// the rule of 2.0 to 2.7; since 2.8 it keeps its log.
//
// Breaks: T7 (no answer).
package undefinedtohw
