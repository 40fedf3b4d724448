// Package msminusone is a known-buggy retention rule for the mutant bank of
// exercise ch03/retention: retention.ms -1 is not treated as "for ever".
//
// Mistake: retention.ms -1 is used as a number: now - largestTimestamp > -1
// holds for every segment, so "keep for ever" deletes everything the other
// limits allow.
//
// Breaks: R1 (retention.ms (-1: forever)).
package msminusone
