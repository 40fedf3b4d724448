// Package inputorder is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it deals to the members in the
// order they are listed instead of sorting them by member id, so the same
// group gets different answers.
//
// Mistake: members are dealt to in the order they are listed, not sorted by
// member id, so the same group gives different answers.
//
// Breaks: G6 (same input, same answer).
package inputorder
