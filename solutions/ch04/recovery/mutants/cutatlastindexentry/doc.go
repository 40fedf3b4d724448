// Package cutatlastindexentry is a known-buggy recovery for the mutant bank
// of exercise ch04/recovery: the file is cut at the last index entry instead
// of after the last valid batch.
//
// Mistake: the file is cut at the last index entry instead of after the last
// valid batch.
//
// Breaks: C6 (cut at the first bad byte).
package cutatlastindexentry
