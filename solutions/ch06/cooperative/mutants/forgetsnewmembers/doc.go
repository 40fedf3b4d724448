// Package forgetsnewmembers is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it builds the assignment from
// the members that own something, so a new member is forgotten.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package forgetsnewmembers
