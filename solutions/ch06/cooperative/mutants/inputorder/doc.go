// Package inputorder is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it deals to the members in the
// order they are listed instead of sorting them by member id, so the same group
// gets different answers.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package inputorder
