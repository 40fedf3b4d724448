// Package bigendiangroups is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the 7-bit groups are written most significant first.
// The suite must reject it; see solutions/kill_test.go.
package bigendiangroups
