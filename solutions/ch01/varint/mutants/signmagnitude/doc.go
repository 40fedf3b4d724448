// Package signmagnitude is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: sign and magnitude (|v|<<1 | sign) instead of zigzag,
// so -1 becomes 3 instead of 1.
// The suite must reject it; see solutions/kill_test.go.
package signmagnitude
