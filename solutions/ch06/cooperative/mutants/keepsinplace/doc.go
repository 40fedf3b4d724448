// Package keepsinplace is a known-buggy cooperative-sticky assignor for the
// mutant bank of exercise ch06/cooperative: what a member keeps is a slice
// of the list it joined with, so the partitions dealt to it are written into
// that list.
//
// Mistake: what a member keeps is a slice of its own OwnedPartitions (sorted
// in place), and the partitions dealt to it are appended to that slice: they
// are written over the partitions it gave up, in the caller's list, which no
// longer says what the member owned.
//
// Breaks: G10 (the members' lists untouched).
package keepsinplace
