// Package neveranotherround is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: it stops after the first round even when the
// follower never had the leader's epoch (KIP-101 without KIP-279).
//
// Mistake: a follower that never had the leader's epoch cuts once and stops;
// it must ask again with its new latest epoch.
//
// Breaks: T4 (another round).
package neveranotherround
