// Package byteslate is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: retention.bytes deletes until the log is under the
// limit, one segment too many.
// The suite must reject it; see solutions/kill_test.go.
package byteslate
