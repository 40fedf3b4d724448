// Package doubleassigns is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it forgets that the kept
// partitions are taken and deals every partition out again.
//
// Mistake: the kept partitions are not marked taken, so they are dealt out
// again and a partition gets two owners.
//
// Breaks: G1 (one owner per partition), G5 (nothing withheld for nothing).
package doubleassigns
