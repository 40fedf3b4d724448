// Package firstruleonly is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: only the first rule that deletes anything counts.
// The suite must reject it; see solutions/kill_test.go.
package firstruleonly
