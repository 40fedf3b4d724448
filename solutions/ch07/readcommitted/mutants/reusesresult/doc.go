// Package reusesresult is a known-buggy Deliver for the mutant bank of
// exercise ch07/readcommitted: it returns a slice it fills again on the next
// call.
//
// Mistake: the offsets are collected in a slice kept between calls and
// returned: the next fetch writes over the answer the application still
// holds.
//
// Breaks: E13 (an earlier result stays).
package reusesresult
