// Package forgetsnewmembers is a known-buggy cooperative-sticky assignment
// for the mutant bank of exercise ch06/cooperative: it builds the assignment
// from the members that own something, so a new member is forgotten.
//
// Mistake: only members that own something get an entry: a new member is
// forgotten.
//
// Breaks: G7 (every member).
package forgetsnewmembers
