// Package overwritesdst is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the varint replaces dst instead of being appended to it.
// The suite must reject it; see solutions/kill_test.go.
package overwritesdst
