// Package lengthrecordsonly is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the length field counts only the records.
// The suite must reject it; see solutions/kill_test.go.
package lengthrecordsonly
