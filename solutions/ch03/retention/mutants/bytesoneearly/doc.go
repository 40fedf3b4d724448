// Package bytesoneearly is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: retention.bytes stops one segment early.
//
// Mistake: retention.bytes stops one segment early (diff - size > 0 instead
// of >= 0).
//
// Breaks: R2 (retention.bytes (-1: no limit)).
package bytesoneearly
