// Package freezesonrevoke is a known-buggy cooperative-sticky assignor for
// the mutant bank of exercise ch06/cooperative: in a round where some member
// must revoke, it hands out nothing new, free partitions included, as if
// every new assignment had to wait for the follow-up rebalance. A partition
// owned by nobody (its owner left, or it was just created) can go at once,
// even while others revoke; only a partition another member still owns must
// wait.
//
// Mistake: in a round where someone must revoke, nothing new is handed out,
// free partitions included; only a partition another member still owns must
// wait for the follow-up rebalance.
//
// Breaks: G5 (nothing withheld for nothing).
package freezesonrevoke
