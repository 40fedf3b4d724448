// Package deletesemptyactive is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: the empty active segment is deleted too.
// The suite must reject it; see solutions/kill_test.go.
package deletesemptyactive
