// Package byteslate is a known-buggy retention rule for the mutant bank of
// exercise ch03/retention: retention.bytes deletes until the log is under
// the limit, one segment too many.
//
// Mistake: retention.bytes deletes until the log is under the limit, one
// segment too many; only segments that fit in the excess go.
//
// Breaks: R2 (retention.bytes (-1: no limit)).
package byteslate
