// Package maxforall is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it lets every member that owns
// maxQuota keep it, not only P mod N of them.
//
// Mistake: every member owning maxQuota keeps it, not only P mod N of them,
// so someone ends up two below.
//
// Breaks: G4 (balanced within one).
package maxforall
