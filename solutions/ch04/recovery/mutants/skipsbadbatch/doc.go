// Package skipsbadbatch is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: a bad batch whose length is sane is skipped and the walk
// goes on, instead of cutting everything from it on.
// The suite must reject it; see solutions/kill_test.go.
package skipsbadbatch
