// Package eightbitshift is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the value is shifted by 8 bits per byte instead of 7.
// The suite must reject it; see solutions/kill_test.go.
package eightbitshift
