// Package neveranotherround is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it stops after the first round even when the
// follower never had the leader's epoch (KIP-101 without KIP-279).
// The suite must reject it; see solutions/truncation_bank_test.go.
package neveranotherround
