// Package truncatestohw is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it truncates to its own high watermark, Kafka
// 0.10's rule (before KIP-101), whatever the leader answers.
//
// Mistake: the follower truncates to its own high watermark: Kafka 0.10's
// rule, which KIP-101 replaced because the HW lags.
//
// Breaks: T1 (log matching), T2 (keep what the leader has), T7 (no answer).
package truncatestohw
