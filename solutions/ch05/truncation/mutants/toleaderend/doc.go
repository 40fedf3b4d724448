// Package toleaderend is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it cuts at the leader's end offset, without the
// minimum with its own end of the epoch and its LEO.
//
// Mistake: the follower cuts at the leader's end offset without taking the
// minimum with its own end of the epoch and its LEO.
//
// Breaks: T1 (log matching), T3 (never past the log end).
package toleaderend
