// Package fourbytes is a known-buggy AppendVarint for the mutant bank of exercise
// ch01/varint: the loop stops after four bytes, though an int32 can
// need five.
// The suite must reject it; see solutions/kill_test.go.
package fourbytes
