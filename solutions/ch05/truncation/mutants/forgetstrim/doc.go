// Package forgetstrim is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it does not trim the epoch cache when it cuts
// the log, so a second round asks the same question again, for ever.
//
// Mistake: the epoch cache is not trimmed after a cut, so the next round
// asks the same question again.
//
// Breaks: T5 (ask for the latest epoch), T6 (trim the epoch cache).
package forgetstrim
