// Package flooronly is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it keeps only minQuota for a
// member that may keep maxQuota, while counting it at maxQuota.
//
// Mistake: a member that may keep maxQuota keeps only minQuota (yet counts
// as holding maxQuota): partitions move for nothing, or are dealt to nobody.
//
// Breaks: G3 (sticky), G4 (balanced within one).
package flooronly
