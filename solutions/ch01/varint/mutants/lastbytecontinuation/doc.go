// Package lastbytecontinuation is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the continuation bit is set on every byte, the last one too.
// The suite must reject it; see solutions/kill_test.go.
package lastbytecontinuation
