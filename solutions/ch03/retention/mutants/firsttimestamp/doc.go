// Package firsttimestamp is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: the age is taken from the first batch's timestamp
// instead of the segment's largest timestamp.
// The suite must reject it; see solutions/kill_test.go.
package firsttimestamp
