// Package keepseverything is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it lets every member keep
// everything it owns, past its quota.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package keepseverything
