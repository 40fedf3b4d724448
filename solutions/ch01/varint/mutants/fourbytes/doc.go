// Package fourbytes is a known-buggy AppendVarint for the mutant bank of
// exercise ch01/varint: the loop stops after four bytes, though an int32 can
// need five.
//
// Mistake: the loop stops after 4 bytes; a Kafka varint can take 5.
//
// Breaks: V3 (length).
package fourbytes
