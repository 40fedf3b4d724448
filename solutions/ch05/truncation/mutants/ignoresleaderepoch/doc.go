// Package ignoresleaderepoch is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: it ignores the epoch in the leader's answer
// and cuts at min(end offset, LEO), or at the HW when there is no answer:
// Kafka 0.11's rule (KIP-101's single round), which diverges after fast
// unclean elections (kafkalive play kip279-two-rounds, branch KIP-101-only,
// step 6a).
//
// Mistake: the answer's epoch is ignored and the follower cuts at min(end
// offset, LEO): Kafka 0.11's rule, which KIP-279 fixed.
//
// Breaks: T1 (log matching), T7 (no answer).
package ignoresleaderepoch
