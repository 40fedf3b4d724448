// Package notaprefix is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: it counts every deletable segment instead of stopping at
// the first one it keeps.
// The suite must reject it; see solutions/kill_test.go.
package notaprefix
