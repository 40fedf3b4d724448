// Package timenotstrict is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: a segment exactly retention.ms old is deleted (>=
// instead of >).
// The suite must reject it; see solutions/kill_test.go.
package timenotstrict
