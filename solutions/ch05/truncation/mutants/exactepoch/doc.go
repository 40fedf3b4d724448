// Package exactepoch is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it looks the leader's epoch up exactly instead
// of taking its largest epoch at or below it, so it never runs a second
// round and cuts at the leader's end.
//
// Mistake: the follower looks the leader's epoch up exactly, not the largest
// epoch at or below it.
//
// Breaks: T1 (log matching), T4 (another round).
package exactepoch
