// Package truncatestohw is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it truncates to its own high watermark, Kafka
// 0.10's rule (before KIP-101), whatever the leader answers.
// The suite must reject it; see solutions/truncation_bank_test.go.
package truncatestohw
