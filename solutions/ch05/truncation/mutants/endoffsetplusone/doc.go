// Package endoffsetplusone is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: it reads the end offset as the last offset of
// the epoch and keeps one record too many.
//
// Mistake: the end offset is read as the last offset of the epoch; it is the
// first offset after it, so one record too many is kept.
//
// Breaks: T1 (log matching).
package endoffsetplusone
