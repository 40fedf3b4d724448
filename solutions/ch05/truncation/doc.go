// Package truncation is the exercise of chapter 5 (notes/05-leader-epochs.md):
// where a follower cuts its log after a leader change, from the leader's
// answer about its latest epoch (KIP-101), over as many rounds as it takes
// (KIP-279), so that its log ends up a prefix of the leader's.
//
// Run its suite with: go test ./exercises/ch05/truncation
package truncation
