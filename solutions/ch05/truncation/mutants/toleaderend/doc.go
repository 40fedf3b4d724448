// Package toleaderend is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it cuts at the leader's end offset, without the
// minimum with its own end of the epoch and its LEO.
// The suite must reject it; see solutions/truncation_bank_test.go.
package toleaderend
