// Package ignoresleaderepoch is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it ignores the epoch in the leader's answer and
// cuts at min(end offset, LEO), or at the HW when there is no answer: Kafka
// 0.11's rule (KIP-101's single round), which diverges after fast unclean
// elections (kafkalive play kip279-two-rounds, branch KIP-101-only, step 6a).
// The suite must reject it; see solutions/truncation_bank_test.go.
package ignoresleaderepoch
