// Package deadlineoverflow is a known-buggy retention rule for the mutant
// bank of exercise ch03/retention: it computes each segment's deadline,
// largestTimestamp + retention.ms, which overflows when retention.ms is
// Long.MaxValue.
//
// Mistake: a segment's deadline is computed as largestTimestamp +
// retention.ms and compared with now; with retention.ms Long.MaxValue ("keep
// for ever" without -1) the sum overflows negative and every segment looks
// expired.
//
// Breaks: R1 (retention.ms (-1: forever)).
package deadlineoverflow
