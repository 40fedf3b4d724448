// Package keepsdeleted is a known-buggy cooperative-sticky assignor for the
// mutant bank of exercise ch06/cooperative: each member keeps what it says
// it owns, as listed in its subscription, without checking that it still
// exists, so a partition of a deleted topic stays assigned (and counts
// toward its owner's quota).
//
// Mistake: members keep what their subscription says they own without
// checking it still exists, so a partition of a deleted topic stays assigned
// and counts toward the quota.
//
// Breaks: G1 (one owner per partition).
package keepsdeleted
