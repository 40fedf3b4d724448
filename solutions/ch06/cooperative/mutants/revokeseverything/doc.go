// Package revokeseverything is a known-buggy cooperative-sticky assignment
// for the mutant bank of exercise ch06/cooperative: it withholds every owned
// partition, even from the member that keeps it, which is the eager
// protocol's stop-the-world.
//
// Mistake: every owned partition is withheld, even from the member that
// keeps it: that is the eager protocol's stop-the-world, not cooperative.
//
// Breaks: G3 (sticky).
package revokeseverything
