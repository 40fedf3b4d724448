// Package undefinedtohw is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it falls back to the high watermark when the leader
// has no answer, as Kafka 0.11 to 2.7 did; since 2.8 the follower keeps its
// log.
// The suite must reject it; see solutions/truncation_bank_test.go.
package undefinedtohw
