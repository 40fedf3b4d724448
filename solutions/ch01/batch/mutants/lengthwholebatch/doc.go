// Package lengthwholebatch is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the length field counts the whole batch instead of the
// bytes after itself.
// The suite must reject it; see solutions/kill_test.go.
package lengthwholebatch
