// Package littleendian is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the header integers are written little-endian.
// The suite must reject it; see solutions/kill_test.go.
package littleendian
