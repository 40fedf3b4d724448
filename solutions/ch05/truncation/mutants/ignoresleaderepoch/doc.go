// Package ignoresleaderepoch is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it ignores the epoch in the leader's answer and
// cuts at min(end offset, LEO), or at the HW when there is no answer: Kafka
// 0.11's rule (R7.6), which diverges after fast unclean elections (S8b step
// 6a).
// The suite must reject it; see solutions/truncation_bank_test.go.
package ignoresleaderepoch
