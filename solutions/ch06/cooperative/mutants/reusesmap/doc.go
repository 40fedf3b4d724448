// Package reusesmap is a known-buggy cooperative-sticky assignor for the
// mutant bank of exercise ch06/cooperative: it returns one map kept between
// calls, cleared at the start of each.
//
// Mistake: the assignment is one map kept between calls, cleared and
// refilled by each rebalance; the next rebalance empties the assignment an
// earlier call returned.
//
// Breaks: G11 (an earlier result stays).
package reusesmap
