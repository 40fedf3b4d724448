// Package noepochasundefined is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: an answer without an epoch is taken for no
// answer.
//
// Mistake: an answer with an end offset but no epoch (NoEpoch, -1: a pre-2.0
// leader) is taken for an undefined answer and the log is kept; only an
// undefined end offset is no answer, and an end offset alone still cuts at
// min(end offset, LEO).
//
// Breaks: T1 (log matching).
package noepochasundefined
