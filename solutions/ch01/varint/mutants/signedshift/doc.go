// Package signedshift is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the zigzag value is kept in a signed int32, so a value
// from 2^31 up looks negative and the loop writes a single byte.
// The suite must reject it; see solutions/kill_test.go.
package signedshift
