// Package keepsownleo is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it keeps its whole log whenever it holds the
// leader's epoch: its own LEO instead of min(leader's end, own end, LEO).
//
// Mistake: a follower that holds the leader's epoch keeps its whole log (own
// LEO instead of min(leader's end, own end of the epoch, LEO)).
//
// Breaks: T1 (log matching).
package keepsownleo
