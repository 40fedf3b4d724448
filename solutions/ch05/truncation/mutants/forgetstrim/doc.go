// Package forgetstrim is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it does not trim the epoch cache when it cuts the
// log, so a second round asks the same question again, for ever.
// The suite must reject it; see solutions/truncation_bank_test.go.
package forgetstrim
