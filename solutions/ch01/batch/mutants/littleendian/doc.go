// Package littleendian is a known-buggy batch encoder for the mutant bank of
// exercise ch01/batch: the header integers are written little-endian.
//
// Mistake: the header integers are little-endian; Kafka writes them
// big-endian.
//
// Breaks: B3 (header fields).
package littleendian
