// Package startoffsetownbase is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: the log start offset is compared with the segment's
// own base offset, deleting the segment that holds it.
// The suite must reject it; see solutions/kill_test.go.
package startoffsetownbase
