// Package noindex is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the index is not rebuilt.
// The suite must reject it; see solutions/kill_test.go.
package noindex
