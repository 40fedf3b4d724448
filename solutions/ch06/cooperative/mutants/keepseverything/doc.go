// Package keepseverything is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it lets every member keep
// everything it owns, past its quota.
//
// Mistake: members keep everything they own, past their quota, so newcomers
// starve and the group stays unbalanced.
//
// Breaks: G4 (balanced within one).
package keepseverything
