// Package keepsownleo is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it keeps its whole log whenever it holds the
// leader's epoch: its own LEO instead of min(leader's end, own end, LEO).
// The suite must reject it; see solutions/truncation_bank_test.go.
package keepsownleo
