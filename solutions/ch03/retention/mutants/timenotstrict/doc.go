// Package timenotstrict is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: a segment exactly retention.ms old is deleted
// (>= instead of >).
//
// Mistake: now - largestTimestamp >= retention.ms; Kafka's test is strict
// (>).
//
// Breaks: R1 (retention.ms (-1: forever)).
package timenotstrict
