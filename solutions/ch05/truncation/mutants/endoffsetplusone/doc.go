// Package endoffsetplusone is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it reads the end offset as the last offset of the
// epoch and keeps one record too many.
// The suite must reject it; see solutions/truncation_bank_test.go.
package endoffsetplusone
