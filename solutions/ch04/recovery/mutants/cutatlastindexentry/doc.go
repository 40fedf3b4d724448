// Package cutatlastindexentry is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the file is cut at the last index entry instead of
// after the last valid batch.
// The suite must reject it; see solutions/kill_test.go.
package cutatlastindexentry
