// Package forgotzigzag is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the zigzag step is missing, so v is written as an unsigned
// number and -1 takes five bytes.
// The suite must reject it; see solutions/kill_test.go.
package forgotzigzag
