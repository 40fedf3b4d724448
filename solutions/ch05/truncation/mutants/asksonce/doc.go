// Package asksonce is a known-buggy truncation for the mutant bank of exercise
// ch05/truncation: it asks the leader once and stops, whatever the round said.
// The suite must reject it; see solutions/truncation_bank_test.go.
package asksonce
