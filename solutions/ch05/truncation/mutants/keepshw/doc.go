// Package keepshw is a known-buggy truncation for the mutant bank of exercise
// ch05/truncation: it leaves the high watermark above the new log end.
// The suite must reject it; see solutions/truncation_bank_test.go.
package keepshw
